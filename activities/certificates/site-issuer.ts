import type { Site } from '../site.js';
import type { CertificateIssuer } from '../../core/certificate-issuer.js';
import { createIssuer } from './issuer.js';

/**
 * The site's tenant service CA, or undefined when the site has none. Bad configuration (a key not
 * matching the certificate, a chain that does not link up) throws here, when the process starts.
 */
export function siteIssuer(site: Site): CertificateIssuer | undefined {
  if (!site.ca) return undefined;
  return createIssuer({ caCertPem: site.ca.certPem, caKeyPem: site.ca.keyPem, chainPem: splitPem(site.ca.chainPem), siteDomain: site.domain });
}

/** A PEM bundle as its certificates, in order. */
export function splitPem(bundle: string | undefined): string[] {
  return bundle?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
