import type { CertificateIssuer } from '../../core/certificate-issuer.js';
import type { Site } from '../../activities/site.js';
import { siteIssuer } from '../../activities/certificates/site-issuer.js';
import { ConfigError } from './env.js';

/**
 * The site's CA as the API signs with it: the adapter (activities/certificates/) bound to the port
 * the API names (core/certificate-issuer.ts), here, so that apps/api imports nothing of
 * activities/. A CA that cannot sign stops the start, naming the variables.
 */
export function loadSiteIssuer(site: Site): CertificateIssuer | undefined {
  try {
    return siteIssuer(site);
  } catch (err) {
    throw new ConfigError(`SITE_CA_CERT, SITE_CA_KEY, SITE_CA_CHAIN: ${(err as Error).message}`);
  }
}
