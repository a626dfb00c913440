import { stateSettings } from './settings.js';
import type { StatePort } from './port.js';
import { BackendHttp } from '../../backends/http/client.js';
import { type BackendArea, probe } from '../backend-area.js';
import { createMinioStateAdapter } from '../../backends/minio/minio.js';
import { signRequest } from '../../backends/minio/sigv4.js';

/** MinIO: each tenant's state-store user and its policy on the state bucket. */
export const stateArea: BackendArea<'state', StatePort, typeof stateSettings> = {
  port: 'state',
  settings: stateSettings,
  // The adapter calls the admin API: the slice's `endpoint` is the address tenants are handed.
  bind: (site, timeoutMs, calls) => createMinioStateAdapter({ ...site.state, endpoint: site.state.adminUrl, timeoutMs, calls }),
  // GetBucketLocation on the state bucket: signed as the adapter signs (its region), read-only.
  probes: (site, timeoutMs) => [
    probe('minio', site.state.adminUrl, async () => {
      const base = site.state.adminUrl.endsWith('/') ? site.state.adminUrl : `${site.state.adminUrl}/`;
      const url = new URL(`${encodeURIComponent(site.state.bucket)}?location=`, base);
      const headers = signRequest({ method: 'GET', url }, { accessKey: site.state.accessKey, secretKey: site.state.secretKey }, { region: site.state.region });
      const res = await new BackendHttp('minio', site.state.adminUrl, {}, timeoutMs, { ca: site.state.ca }).call({
        path: url.pathname,
        query: { location: '' },
        headers,
      });
      const region = /<LocationConstraint[^>]*>([^<]*)</.exec(res.text)?.[1] || 'us-east-1';
      return `bucket ${site.state.bucket} in region ${region}`;
    }),
  ],
};
