import type { webcrypto } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { CANARY_OBJECT, canaryRecordAddress, type CanaryName } from '../../core/canaries.js';
import { deriveIdentity } from '../../core/identity.js';
import { newest } from '../../core/object-life.js';
import { REUSE_MIN_REMAINING_MS } from '../../core/certificate-reuse.js';
import { objectPath, runIds } from '../../contracts/ids.js';
import { attemptRecordPut, type RecordPutRequest } from '../../contracts/record.js';
import { attemptWifiKeyIssue, type IssueKeyInput } from '../../contracts/wifi-key.js';
import { issueCertificate } from '../../db/queries/certificate-issue.js';
import { getCertificate } from '../../db/queries/certificates.js';
import { runsOfObjects } from '../../db/queries/object-runs.js';
import { getRecord } from '../../db/queries/records.js';
import { getTenantRow } from '../../db/queries/tenants.js';
import { getWifiKey } from '../../db/queries/wifi-keys.js';
import { crypto, x509 } from '../../core/x509.js';
import type { ActivityDeps } from '../deps.js';
import { CANARY_ACTOR, deliver } from './deliver.js';

/** Where the canaries' runs are delivered: the worker's own client and task queue. */
export interface CanaryRuns {
  client: Client;
  taskQueue: string;
}

/** A canary object that its run did not make: the check cannot probe it, so it stops here. */
function notMade(name: CanaryName, object: string, answer: { kind: string; step?: string; message?: string }): ApplicationFailure {
  const why = answer.kind === 'failed' ? `its ${answer.step} step failed` : (answer.message ?? answer.kind);
  return ApplicationFailure.create({ type: 'CanaryNotReady', message: `canary ${name}'s ${object} could not be made: ${why}` });
}

/**
 * Made, and its last run finished: a later check leaves it as it is, drift included (the check is
 * there to see it). One whose run failed or was left parked is delivered again, as a tenant's
 * repeat would be, which resumes that run.
 */
async function made(deps: ActivityDeps, row: unknown, object: string): Promise<boolean> {
  if (!row) return false;
  const last = newest((await runsOfObjects(deps.db, [object])).get(object) ?? []);
  return last === undefined || last.state === 'done';
}

/**
 * The canary's published name `probe.<zone>`, through the record run (`record-put/<canary>/probe`)
 * as a tenant's PUT makes one: an A record to a host of its own subnet, and its PTR.
 */
export async function ensureCanaryRecord(deps: ActivityDeps, runs: CanaryRuns, name: CanaryName): Promise<void> {
  if (await made(deps, await getRecord(deps.db, name, CANARY_OBJECT), objectPath.record(name, CANARY_OBJECT))) return;
  const row = await getTenantRow(deps.db, name);
  if (!row) throw ApplicationFailure.nonRetryable(`canary ${name} is not registered`, 'CanaryMissing');
  const address = canaryRecordAddress(deriveIdentity(deps.site, name, row.index).subnet);
  const request: RecordPutRequest = { tenant: name, name: CANARY_OBJECT, address, actor: CANARY_ACTOR };
  const answer = await deliver(runs.client, runs.taskQueue, 'recordPut', runIds.recordPut(name, CANARY_OBJECT), name, attemptRecordPut, request, {
    tenant: name,
    name: CANARY_OBJECT,
  });
  if (answer.kind !== 'done') throw notMade(name, 'record', answer);
}

/**
 * The canary's Wi-Fi key `probe`, through the Wi-Fi key run (`wifi-key/<canary>/probe`) as a
 * tenant's issue makes one: the service mints the psk, the trust class decides SSID and network.
 * Its psk is kept sealed in the key's row, like every tenant's; the probe reads it from there.
 */
export async function ensureCanaryWifiKey(deps: ActivityDeps, runs: CanaryRuns, name: CanaryName, trustClass: string): Promise<void> {
  if (await made(deps, await getWifiKey(deps.db, name, CANARY_OBJECT), objectPath.wifiKey(name, CANARY_OBJECT))) return;
  const request: IssueKeyInput = { tenant: name, name: CANARY_OBJECT, trustClass, actor: CANARY_ACTOR };
  const workflowId = runIds.wifiKeyIssue(name, CANARY_OBJECT, false);
  const answer = await deliver(runs.client, runs.taskQueue, 'wifiKeyIssue', workflowId, name, attemptWifiKeyIssue, request, request);
  if (answer.kind !== 'done') throw notMade(name, 'Wi-Fi key', answer);
}

/**
 * The canary's certificate `probe` (`probe.<zone>`), through the certificate issue a tenant's PUT
 * takes (db/queries/certificate-issue.ts), with the site's CA; issued again within sixty days of
 * its end, since nothing renews it unasked and an expired one would leave the probe broken. The service makes the key pair and
 * the request here, as a tenant would on its own host: the private key is not extractable and is
 * dropped with this call, so no copy of it exists anywhere. The probe needs only the certificate,
 * which is public.
 */
export async function ensureCanaryCertificate(deps: ActivityDeps, name: CanaryName): Promise<void> {
  const issuer = deps.ports.ca;
  const current = await getCertificate(deps.db, name, CANARY_OBJECT);
  // Renewed as a tenant renews (issuance rule 6): within sixty days of its end, with a new key.
  if (!issuer || (current && current.notAfter.getTime() - Date.now() > REUSE_MIN_REMAINING_MS)) return;
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await crypto.subtle.generateKey(alg, false, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: `CN=${CANARY_OBJECT}`, keys, signingAlgorithm: alg }, crypto);
  const answer = await issueCertificate(
    { siteDomain: deps.site.domain, db: deps.db, issuer, log: deps.log, now: () => new Date() },
    { tenant: name, name: CANARY_OBJECT, csr: csr.toString('pem'), names: [] },
  );
  if (answer.kind !== 'issued' && answer.kind !== 'current') {
    throw notMade(name, 'certificate', answer.kind === 'invalid' ? { kind: 'refused', message: answer.reason } : answer);
  }
}
