import { caSettings } from './settings.js';
import type { CertificateIssuer } from '../../core/certificate-issuer.js';
import type { BackendArea } from '../backend-area.js';
import { siteIssuer } from './site-issuer.js';

/** The tenant service CA: server certificates signed in the worker, as the API signs them (no product to probe). */
export const certificatesArea: BackendArea<'ca', CertificateIssuer | undefined, typeof caSettings> = {
  port: 'ca',
  settings: caSettings,
  bind: (site) => siteIssuer(site),
};
