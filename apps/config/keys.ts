import type { SealKeys } from '../../db/seal.js';
import type { Site } from '../../activities/site.js';

export function sealKeys(site: Site): SealKeys {
  return { current: { id: site.secretsKeyId, key: site.secretsKey } };
}
