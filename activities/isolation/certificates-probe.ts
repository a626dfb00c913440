import { X509Certificate } from 'node:crypto';
import { checkServerIdentity } from 'node:tls';
import { ApplicationFailure } from '@temporalio/activity';
import { CANARY_OBJECT, CANARY_PROBE_LABEL } from '../../core/canaries.js';
import { certificateDnsNames, tenantZone } from '../../core/names/certificate-labels.js';
import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import { getCertificate } from '../../db/queries/certificates.js';
import type { ActivityDeps } from '../deps.js';
import { verdict, type Attempt } from './verdict.js';

/**
 * `certificates.isolation-probe`: the credential's certificate, as the registry serves it to its
 * tenant (`GET .../certificates/probe`), checked as a TLS client checks a server's: signed by the
 * site's tenant CA, within its validity, then its names matched (`tls.checkServerIdentity`). On its
 * own objects it must be valid for the canary's published name `probe.<zone>`. On the other canary's
 * it must be valid for none of its names: its published name, its certificate's names, and a name
 * below its zone that a wildcard would match. A certificate is public and grants nothing but its
 * names, so name scoping is the only crossing it can carry (docs/production.md). Read only.
 */
export async function certificatesProbe(deps: ActivityDeps, input: ProbeInput): Promise<ProbeAnswer> {
  const [mine, theirs] = await Promise.all([
    getCertificate(deps.db, input.credentialOf, CANARY_OBJECT),
    getCertificate(deps.db, input.objectOf, CANARY_OBJECT),
  ]);
  if (!mine || !theirs) {
    throw ApplicationFailure.nonRetryable(`canary ${input.credentialOf}'s or ${input.objectOf}'s certificate is not held`, 'CanaryMissing');
  }
  const cert = new X509Certificate(mine.certificatePem);
  const ca = new X509Certificate(deps.ports.ca!.caCertificatePem);
  const now = Date.now();
  const trusted = cert.checkIssued(ca) && cert.verify(ca.publicKey) && Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);
  const peer = cert.toLegacyObject();
  const validFor = (name: string): Attempt => ({ what: `valid for ${name}`, reached: trusted && checkServerIdentity(name, peer) === undefined });
  const zone = tenantZone(input.objectOf, deps.site.domain);
  if (input.credentialOf === input.objectOf) {
    return verdict('certificates', 'certificate', input, [
      { what: "signed by the site's tenant CA and current", reached: trusted },
      validFor(`${CANARY_OBJECT}.${zone}`),
    ]);
  }
  const names = new Set([`${CANARY_OBJECT}.${zone}`, ...certificateDnsNames(theirs.name, zone, theirs.names), `${CANARY_PROBE_LABEL}.${zone}`]);
  return verdict('certificates', 'certificate', input, [...names].map(validFor));
}
