/** A tenant certificate on the wire; everything in it is public. */
export interface CertificateView {
  name: string;
  fqdn: string;
  names: string[];
  dns_names: string[];
  certificate: string;
  chain: string;
  not_before: string;
  not_after: string;
  serial: string;
  created_at: string;
}
