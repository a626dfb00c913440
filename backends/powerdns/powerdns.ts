/**
 * DNS adapter for PowerDNS Authoritative 4.7 through its HTTP API
 * (https://doc.powerdns.com/authoritative/http-api/: zone.html, tsigkey.html, metadata.html;
 * per-zone update ACLs in domainmetadata.html and dnsupdate.html).
 *
 * A tenant owns a forward and a reverse zone that RFC 2136 updates may change only when signed
 * with the tenant's TSIG key: TSIG-ALLOW-DNSUPDATE names the key and ALLOW-DNSUPDATE-FROM admits
 * every address, so the key alone decides. The service itself writes through the API, one rrset
 * at a time, so the names the tenant publishes with its key are never touched.
 *
 * At a site with secondary name servers the zones are Primary zones in the site's catalog zone,
 * notified on every change (./catalog.ts); without them they stay Native, as PowerDNS serves them
 * from its own database alone.
 */
import type { BackendCalls } from '../http/calls.js';
import { BackendHttp } from '../http/client.js';
import { BackendError, type ObjectOutcome } from '../../core/backend-outcome.js';
import { differs, ensure, once, plan, type Observation, type ObjectKind } from '../reconcile/reconcile.js';
import { absoluteName, isInZone } from './names.js';
import { ensureCatalog, notifySecondaries } from './catalog.js';

const PRODUCT = 'powerdns';
/** Update sources are not restricted: the TSIG key is the gate. */
const UPDATE_FROM_ANY = ['0.0.0.0/0', '::/0'];
const SOA_TIMERS = '10800 3600 604800 3600';
/** The TTL of every rrset the service writes (ensureRecord without one). */
export const DEFAULT_TTL = 3600;

export interface PowerDnsAdapterOptions {
  /** API base including `/api/v1`, e.g. `http://127.0.0.1:8081/api/v1`. */
  apiUrl: string;
  apiKey: string;
  serverId?: string;
  /** NS names of the tenant zones, e.g. `ns1.lab.example.`; the first is the SOA primary. */
  nameservers: string[];
  /** Where tenants send RFC 2136 updates (reported to them, e.g. `192.0.2.53:53`). */
  updateServer: string;
  timeoutMs?: number;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
  /** PEM certificates to trust for this backend's HTTPS (its private CA); public roots when absent. */
  ca?: string;
  /** The site's producer catalog zone, when it has secondaries (SITE_DNS_SECONDARIES): zones join it. */
  catalog?: string;
}

export interface TenantZoneSpec {
  tenant: string;
  zone: string;
  reverseZone: string;
  tsigKeyName: string;
  tsigAlgorithm: string;
  /** Base64 TSIG secret. */
  tsigSecret: string;
}

export interface ObservedObject {
  exists: boolean;
  /** True when it exists and nothing differs from the spec. */
  matches: boolean;
  /** What differs, secret-free (e.g. `NS`, `TSIG-ALLOW-DNSUPDATE`, `secret`). */
  drift: string[];
}

export interface TenantZoneObservation {
  zone: ObservedObject;
  reverseZone: ObservedObject;
  tsigKey: ObservedObject;
}

export type PublishedType = 'A' | 'PTR';

export interface RecordSpec {
  zone: string;
  /** Absolute owner name inside `zone`. */
  name: string;
  type: PublishedType;
  /** An IPv4 address for A, an absolute name for PTR. */
  content: string;
  ttl?: number;
}

export interface DnsRecord {
  name: string;
  type: string;
  ttl: number;
  content: string;
}

export interface DnsAdapter {
  /** Where tenants send RFC 2136 updates. */
  readonly updateServer: string;
  observe(spec: TenantZoneSpec): Promise<TenantZoneObservation>;
  /** Key, forward zone, reverse zone: created, adopted or corrected. */
  ensure(spec: TenantZoneSpec): Promise<ObjectOutcome[]>;
  /** What ensure would report, from reads alone. */
  plan(spec: TenantZoneSpec): Promise<ObjectOutcome[]>;
  /** Deletes both zones (with their records and metadata) and the key; absent is fine. */
  remove(spec: Pick<TenantZoneSpec, 'zone' | 'reverseZone' | 'tsigKeyName'>): Promise<void>;
  /** Sets exactly this one rrset (name + type) to one record; other rrsets stay as they are. */
  ensureRecord(spec: RecordSpec): Promise<ObjectOutcome>;
  /** What ensureRecord of each (all in `zone`) would report, from one read of the zone. */
  planRecords(zone: string, specs: RecordSpec[]): Promise<ObjectOutcome[]>;
  /** Deletes the one rrset (name + type); absent (or zone absent) is fine. */
  removeRecord(spec: { zone: string; name: string; type: PublishedType }): Promise<void>;
  /** Every record of the zone, one entry per record; an absent zone has none. */
  listRecords(zone: string): Promise<DnsRecord[]>;
  zoneExists(zone: string): Promise<boolean>;
}

interface ApiRecord {
  content: string;
  disabled?: boolean;
}
interface ApiRrset {
  name: string;
  type: string;
  ttl: number;
  records: ApiRecord[];
}
interface ApiZone {
  id: string;
  name: string;
  kind: string;
  /** The producer catalog the zone is a member of ('' for none). */
  catalog?: string;
  rrsets?: ApiRrset[];
}
interface ApiTsigKey {
  id: string;
  name: string;
  algorithm: string;
  key: string;
}
interface ApiMetadata {
  kind: string;
  metadata: string[];
}

/** What the adapter's functions share: the API client and the names every tenant zone carries. */
interface Pdns {
  http: BackendHttp;
  server: string;
  nameservers: string[];
  primary: string;
  catalog?: string;
  /** What a tenant zone's kind is: Master (PowerDNS 4.7's name for Primary) at a site with secondaries. */
  kind: 'Master' | 'Native';
}

export function createPowerDnsAdapter(opts: PowerDnsAdapterOptions): DnsAdapter {
  if (opts.nameservers.length === 0) throw new Error('powerdns adapter: at least one nameserver is needed');
  const nameservers = opts.nameservers.map(absoluteName);
  const ctx: Pdns = {
    nameservers,
    primary: nameservers[0] as string,
    catalog: opts.catalog && absoluteName(opts.catalog),
    kind: opts.catalog ? 'Master' : 'Native',
    http: new BackendHttp(PRODUCT, opts.apiUrl, { 'X-API-Key': opts.apiKey, accept: 'application/json' }, opts.timeoutMs, { ca: opts.ca, calls: opts.calls }),
    server: `servers/${encodeURIComponent(opts.serverId ?? 'localhost')}`,
  };
  return {
    updateServer: opts.updateServer,
    observe: (spec) => observe(ctx, spec),
    plan: (spec) => planZones(ctx, spec),
    ensure: (spec) => ensureZones(ctx, spec),
    remove: (spec) => remove(ctx, spec),
    ensureRecord: (spec) => ensureRecord(ctx, spec),
    planRecords: (zone, specs) => zoneRecordsPlan(ctx, zone, specs),
    removeRecord: (spec) => removeRecord(ctx, spec),
    listRecords: (zone) => listRecords(ctx, zone),
    zoneExists: (zone) => zoneExists(ctx, zone),
  };
}

// Zone and key ids are the absolute name; '/' would be escaped as =2F, but our names never hold one.
const zonePath = (ctx: Pdns, zone: string) => `${ctx.server}/zones/${encodeURIComponent(absoluteName(zone))}`;
const keyPath = (ctx: Pdns, name: string) => `${ctx.server}/tsigkeys/${encodeURIComponent(keyId(name))}`;

async function getZone(ctx: Pdns, zone: string, filter?: { name: string; type: string }): Promise<ApiZone | undefined> {
  const query = filter ? { rrset_name: filter.name, rrset_type: filter.type } : undefined;
  const res = await ctx.http.call({ path: zonePath(ctx, zone), query, accept: [404] });
  return res.status === 404 ? undefined : res.json<ApiZone>();
}

async function getMetadata(ctx: Pdns, zone: string): Promise<ApiMetadata[]> {
  const res = await ctx.http.call({ path: `${zonePath(ctx, zone)}/metadata`, accept: [404] });
  return res.status === 404 ? [] : (res.json<ApiMetadata[]>() ?? []);
}

async function getKey(ctx: Pdns, name: string): Promise<ApiTsigKey | undefined> {
  const res = await ctx.http.call({ path: keyPath(ctx, name), accept: [404] });
  return res.status === 404 ? undefined : res.json<ApiTsigKey>();
}

function keyDrift(key: ApiTsigKey | undefined, spec: TenantZoneSpec): string[] {
  if (!key) return [];
  const drift: string[] = [];
  if (key.algorithm.toLowerCase().replace(/\.$/, '') !== spec.tsigAlgorithm.toLowerCase()) drift.push('algorithm');
  if (!sameSecret(key.key, spec.tsigSecret)) drift.push('secret');
  return drift;
}

function zoneDrift(ctx: Pdns, zone: ApiZone | undefined, metadata: ApiMetadata[], spec: TenantZoneSpec): string[] {
  if (!zone) return [];
  const drift: string[] = [];
  if (zone.kind.toLowerCase() !== ctx.kind.toLowerCase()) drift.push('kind');
  // A site without secondaries leaves the field alone: an operator's own catalog is theirs.
  if (ctx.catalog && norm(zone.catalog || '.') !== norm(ctx.catalog)) drift.push('catalog');
  const apex = norm(zone.name);
  const ns = (zone.rrsets ?? []).find((r) => r.type === 'NS' && sameName(r.name, apex));
  if (
    !sameSet(
      (ns?.records ?? []).filter((r) => !r.disabled).map((r) => norm(r.content)),
      ctx.nameservers,
    )
  )
    drift.push('NS');
  const soa = (zone.rrsets ?? []).find((r) => r.type === 'SOA' && sameName(r.name, apex));
  const soaPrimary = soa?.records[0]?.content.split(/\s+/)[0];
  if (!soaPrimary || !sameName(soaPrimary, ctx.primary)) drift.push('SOA');
  const meta = (kind: string) => metadata.find((m) => m.kind.toUpperCase() === kind)?.metadata ?? [];
  if (!sameSet(meta('TSIG-ALLOW-DNSUPDATE').map(norm), [norm(spec.tsigKeyName)])) drift.push('TSIG-ALLOW-DNSUPDATE');
  if (!sameSet(meta('ALLOW-DNSUPDATE-FROM'), UPDATE_FROM_ANY)) drift.push('ALLOW-DNSUPDATE-FROM');
  // A tenant's own update then reaches the secondaries at once, not at PowerDNS's next check round.
  if (ctx.catalog && !sameSet(meta('NOTIFY-DNSUPDATE'), ['1'])) drift.push('NOTIFY-DNSUPDATE');
  return drift;
}

/** What the backend holds of a zone: the zone as read, for the corrections that need it (the SOA's serial). */
interface ZoneObservation extends Observation {
  found?: ApiZone;
}

/** One of the tenant's zones (forward or reverse) with the update ACL that names its key. */
interface ZoneWant {
  zone: string;
  spec: TenantZoneSpec;
}

/** The TSIG key: created, or its algorithm and secret corrected. */
function keyKind(ctx: Pdns): ObjectKind<TenantZoneSpec> {
  const seen = (key: ApiTsigKey | undefined, spec: TenantZoneSpec): Observation => ({ exists: !!key, drift: keyDrift(key, spec) });
  return {
    object: (spec) => `tsig key ${spec.tsigKeyName}`,
    observe: async (spec) => seen(await getKey(ctx, spec.tsigKeyName), spec),
    async apply(spec, before) {
      const body = { name: spec.tsigKeyName, algorithm: spec.tsigAlgorithm, key: spec.tsigSecret };
      const put = () => ctx.http.call({ method: 'PUT', path: keyPath(ctx, spec.tsigKeyName), json: body });
      if (before.exists) return void (await put());
      const res = await ctx.http.call({ method: 'POST', path: `${ctx.server}/tsigkeys`, json: body, accept: [409] });
      if (res.status !== 409) return;
      // Created by someone else in between: adopt it.
      const current = await getKey(ctx, spec.tsigKeyName);
      if (!current) throw new BackendError(PRODUCT, `tsig key ${spec.tsigKeyName} vanished while being created`);
      const adopted = seen(current, spec);
      if (adopted.drift.length > 0) await put();
      return { adopted };
    },
  };
}

/** A tenant zone: created with its update ACL, or its kind, catalog, NS, SOA and metadata corrected. */
function zoneKind(ctx: Pdns): ObjectKind<ZoneWant, ZoneObservation> {
  return {
    object: (want) => `zone ${absoluteName(want.zone)}`,
    async observe({ zone, spec }) {
      const found = await getZone(ctx, zone);
      const drift = found ? zoneDrift(ctx, found, await getMetadata(ctx, zone), spec) : [];
      return { exists: !!found, drift, found };
    },
    async apply({ zone, spec }, seen) {
      const name = absoluteName(zone);
      if (seen.found) return void (await correctZone(ctx, name, seen.found, seen.drift, spec));
      const { found, existed } = await createZone(ctx, name);
      // A zone this call created has no metadata yet: asking would be a round trip to learn that.
      const drift = zoneDrift(ctx, found, existed ? await getMetadata(ctx, name) : [], spec);
      await correctZone(ctx, name, found, drift, spec);
      // A zone created just now has no update ACL yet: that completes its creation, not a correction.
      return existed ? { adopted: { exists: true, drift, found } } : undefined;
    },
  };
}

/** Create the zone of this absolute name; `existed` when someone else created it meanwhile (then read back). */
async function createZone(ctx: Pdns, name: string): Promise<{ found: ApiZone; existed: boolean }> {
  const res = await ctx.http.call({
    method: 'POST',
    path: `${ctx.server}/zones`,
    json: { name, kind: ctx.kind, ...(ctx.catalog ? { catalog: ctx.catalog } : {}), nameservers: ctx.nameservers, rrsets: [soaRrset(ctx, name, 1)] },
    accept: [409],
  });
  const existed = res.status === 409;
  const found = existed ? await getZone(ctx, name) : res.json<ApiZone>();
  if (!found) throw new BackendError(PRODUCT, `zone ${name} vanished while being created`);
  return { found, existed };
}

async function correctZone(ctx: Pdns, name: string, found: ApiZone, drift: string[], spec: TenantZoneSpec): Promise<void> {
  if (drift.includes('kind') || drift.includes('catalog')) {
    await ctx.http.call({ method: 'PUT', path: zonePath(ctx, name), json: { kind: ctx.kind, masters: [], ...(ctx.catalog ? { catalog: ctx.catalog } : {}) } });
  }
  const rrsets: unknown[] = [];
  if (drift.includes('NS')) {
    rrsets.push({ name, type: 'NS', ttl: DEFAULT_TTL, changetype: 'REPLACE', records: ctx.nameservers.map((content) => ({ content, disabled: false })) });
  }
  if (drift.includes('SOA')) {
    const soa = (found.rrsets ?? []).find((r) => r.type === 'SOA' && sameName(r.name, name));
    const serial = Number(soa?.records[0]?.content.split(/\s+/)[2] ?? 1) || 1;
    rrsets.push({ ...soaRrset(ctx, name, serial), changetype: 'REPLACE' });
  }
  if (rrsets.length > 0) await ctx.http.call({ method: 'PATCH', path: zonePath(ctx, name), json: { rrsets } });
  if (drift.includes('TSIG-ALLOW-DNSUPDATE')) await putMetadata(ctx, name, 'TSIG-ALLOW-DNSUPDATE', [spec.tsigKeyName]);
  if (drift.includes('ALLOW-DNSUPDATE-FROM')) await putMetadata(ctx, name, 'ALLOW-DNSUPDATE-FROM', UPDATE_FROM_ANY);
  if (drift.includes('NOTIFY-DNSUPDATE')) await putMetadata(ctx, name, 'NOTIFY-DNSUPDATE', ['1']);
}

function soaRrset(ctx: Pdns, zone: string, serial: number) {
  const content = `${ctx.primary} hostmaster.${zone} ${serial} ${SOA_TIMERS}`;
  return { name: zone, type: 'SOA', ttl: DEFAULT_TTL, records: [{ content, disabled: false }] };
}

async function putMetadata(ctx: Pdns, zone: string, kind: string, values: string[]): Promise<void> {
  await ctx.http.call({ method: 'PUT', path: `${zonePath(ctx, zone)}/metadata/${kind}`, json: { kind, metadata: values } });
}

/** The one rrset (name + type) the service publishes: what it holds of the zone `zoneOf` reads. */
function recordKind(ctx: Pdns, zoneOf: (spec: RecordSpec) => Promise<ApiZone | undefined>): ObjectKind<RecordSpec> {
  const wanted = (spec: RecordSpec) => ({
    name: absoluteName(spec.name),
    type: spec.type,
    content: spec.type === 'PTR' ? absoluteName(spec.content) : spec.content,
    ttl: spec.ttl ?? DEFAULT_TTL,
  });
  return {
    object: (spec) => `record ${absoluteName(spec.name)} ${spec.type}`,
    async observe(spec) {
      checkOwner(spec.zone, spec.name);
      const want = wanted(spec);
      const current = ((await zoneOf(spec))?.rrsets ?? []).find((r) => r.type === spec.type && sameName(r.name, want.name));
      return { exists: !!current?.records.length, drift: rrsetDrift(current, want) };
    },
    async apply(spec) {
      const { name, type, content, ttl } = wanted(spec);
      await ctx.http.call({
        method: 'PATCH',
        path: zonePath(ctx, spec.zone),
        json: { rrsets: [{ name, type, ttl, changetype: 'REPLACE', records: [{ content, disabled: false }] }] },
      });
      if (ctx.catalog) await notifySecondaries(ctx.http, zonePath(ctx, spec.zone));
    },
  };
}

/** What ensureRecord of each would report, from one read of the zone. */
async function zoneRecordsPlan(ctx: Pdns, zone: string, specs: RecordSpec[]): Promise<ObjectOutcome[]> {
  if (specs.length === 0) return [];
  // An absent zone: the dns step's ensure creates it, and every name comes with it.
  const kind = recordKind(
    ctx,
    once(() => getZone(ctx, zone)),
  );
  const outcomes: ObjectOutcome[] = [];
  for (const spec of specs) outcomes.push(await plan(kind, spec));
  return outcomes;
}

function checkOwner(zone: string, name: string): void {
  if (!isInZone(name, zone)) throw new BackendError(PRODUCT, `${name} is outside zone ${zone}`, false);
}

async function observe(ctx: Pdns, spec: TenantZoneSpec): Promise<TenantZoneObservation> {
  const tsigKey = await keyKind(ctx).observe(spec);
  const of = ({ exists, drift }: Observation): ObservedObject => ({ exists, matches: !differs({ exists, drift }), drift });
  return {
    zone: of(await zoneKind(ctx).observe({ zone: spec.zone, spec })),
    reverseZone: of(await zoneKind(ctx).observe({ zone: spec.reverseZone, spec })),
    tsigKey: of(tsigKey),
  };
}

async function planZones(ctx: Pdns, spec: TenantZoneSpec): Promise<ObjectOutcome[]> {
  return [await plan(keyKind(ctx), spec), await plan(zoneKind(ctx), { zone: spec.zone, spec }), await plan(zoneKind(ctx), { zone: spec.reverseZone, spec })];
}

async function ensureZones(ctx: Pdns, spec: TenantZoneSpec): Promise<ObjectOutcome[]> {
  // The key first: the zones' update ACL names it. The catalog before the zones that join it.
  const key = await ensure(keyKind(ctx), spec);
  if (ctx.catalog) await ensureCatalog(ctx.http, ctx.server, ctx.catalog);
  return [key, await ensure(zoneKind(ctx), { zone: spec.zone, spec }), await ensure(zoneKind(ctx), { zone: spec.reverseZone, spec })];
}

async function remove(ctx: Pdns, spec: Pick<TenantZoneSpec, 'zone' | 'reverseZone' | 'tsigKeyName'>): Promise<void> {
  for (const zone of [spec.zone, spec.reverseZone]) {
    await ctx.http.call({ method: 'DELETE', path: zonePath(ctx, zone), accept: [404] });
  }
  await ctx.http.call({ method: 'DELETE', path: keyPath(ctx, spec.tsigKeyName), accept: [404] });
}

async function ensureRecord(ctx: Pdns, spec: RecordSpec): Promise<ObjectOutcome> {
  const zoneOf = async (r: RecordSpec) => {
    const zone = await getZone(ctx, r.zone, { name: absoluteName(r.name), type: r.type });
    if (!zone) throw new BackendError(PRODUCT, `zone ${absoluteName(r.zone)} does not exist`, false, 404);
    return zone;
  };
  return ensure(recordKind(ctx, zoneOf), spec);
}

async function removeRecord(ctx: Pdns, spec: { zone: string; name: string; type: PublishedType }): Promise<void> {
  checkOwner(spec.zone, spec.name);
  const res = await ctx.http.call({
    method: 'PATCH',
    path: zonePath(ctx, spec.zone),
    json: { rrsets: [{ name: absoluteName(spec.name), type: spec.type, changetype: 'DELETE' }] },
    accept: [404],
  });
  if (ctx.catalog && res.status !== 404) await notifySecondaries(ctx.http, zonePath(ctx, spec.zone));
}

async function listRecords(ctx: Pdns, zone: string): Promise<DnsRecord[]> {
  const found = await getZone(ctx, zone);
  return (found?.rrsets ?? []).flatMap((r) =>
    r.records.filter((x) => !x.disabled).map((x) => ({ name: r.name, type: r.type, ttl: r.ttl, content: x.content })),
  );
}

async function zoneExists(ctx: Pdns, zone: string): Promise<boolean> {
  const res = await ctx.http.call({ path: zonePath(ctx, zone), query: { rrsets: 'false' }, accept: [404] });
  return res.status !== 404;
}

/**
 * What differs of one rrset the service publishes (one record): `content` (or more than one
 * record, or a disabled one), `ttl`. Nothing for an absent rrset: it is created, not corrected.
 */
function rrsetDrift(current: ApiRrset | undefined, want: { type: PublishedType; content: string; ttl: number }): string[] {
  const records = current?.records ?? [];
  if (records.length === 0) return [];
  const one = records.length === 1 && !records[0]?.disabled && sameContent(want.type, records[0]?.content ?? '', want.content);
  return [...(one ? [] : ['content']), ...(current?.ttl === want.ttl ? [] : ['ttl'])];
}

/** PowerDNS ids a key by its absolute name, whatever form it was created with. */
function keyId(name: string): string {
  return absoluteName(name);
}

/** Lenient comparison form for names read back from the server (which may hold anything). */
function norm(name: string): string {
  const n = name.trim().toLowerCase();
  return n.endsWith('.') ? n : `${n}.`;
}

function sameName(a: string, b: string): boolean {
  return norm(a) === norm(b);
}

function sameSet(a: string[], b: string[]): boolean {
  const x = new Set(a.map((s) => s.toLowerCase()));
  const y = new Set(b.map((s) => s.toLowerCase()));
  return x.size === y.size && [...x].every((v) => y.has(v));
}

function sameContent(type: PublishedType, a: string, b: string): boolean {
  return type === 'PTR' ? sameName(a, b) : a === b;
}

/** Compare secrets as bytes: base64 has more than one spelling of the same key. */
function sameSecret(a: string, b: string): boolean {
  return Buffer.from(a, 'base64').equals(Buffer.from(b, 'base64'));
}
