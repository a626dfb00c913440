import type { CertificateIssuer } from '../../core/certificate-issuer.js';
import { backendArea } from '../backend-area.js';
import { siteIssuer } from './site-issuer.js';

/** The tenant service CA: server certificates signed in the worker, as the API signs them (no product to probe). */
export const certificatesArea = backendArea({ port: 'ca', bind: (site): CertificateIssuer | undefined => siteIssuer(site) });
