import { createHmac, randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';

/**
 * A tenant's RFC 2136 update, as `nsupdate -y hmac-sha256:<key>:<secret>` sends it: one UDP
 * UPDATE message for a zone, signed with TSIG (RFC 8945). What the isolation check sends to see
 * whether a tenant's key can change a zone (activities/isolation/dns-probe.ts); the service's own
 * zone writes go through PowerDNS's API instead. The answer's own signature is not checked: only
 * its response code is read, and a forged answer could only make the check report a crossing.
 */

export interface TsigKey {
  name: string;
  /** `hmac-sha256` (what every tenant key is, core/identity.ts). */
  algorithm: 'hmac-sha256';
  /** The base64 secret. */
  secret: string;
}

/** One change of the update section: add an RR, or delete the RRset of a name and type. */
export type UpdateChange = { add: { name: string; type: 'TXT'; ttl: number; text: string } } | { deleteRRset: { name: string; type: 'TXT' } };

/** The response code names RFC 1035/2136/8945 give the answers an update may have. */
const RCODES: Record<number, string> = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
  8: 'NXRRSET',
  9: 'NOTAUTH',
  10: 'NOTZONE',
};

const TYPE = { SOA: 6, TXT: 16, TSIG: 250 };
const CLASS = { IN: 1, ANY: 255 };

function wireName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l.toLowerCase(), 'ascii')])), Buffer.from([0])]);
}

const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const u32 = (n: number) => Buffer.from([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
const u48 = (n: number) => Buffer.concat([u16(Math.floor(n / 2 ** 32)), u32(n % 2 ** 32)]);

function changeRecord(c: UpdateChange): Buffer {
  if ('add' in c) {
    const text = Buffer.from(c.add.text, 'utf8');
    const rdata = Buffer.concat([Buffer.from([text.length]), text]);
    return Buffer.concat([wireName(c.add.name), u16(TYPE.TXT), u16(CLASS.IN), u32(c.add.ttl), u16(rdata.length), rdata]);
  }
  // RFC 2136 §2.5.2: class ANY, TTL 0, no RDATA deletes the RRset.
  return Buffer.concat([wireName(c.deleteRRset.name), u16(TYPE.TXT), u16(CLASS.ANY), u32(0), u16(0)]);
}

/** The UPDATE message for `zone`, signed with `key` (RFC 8945 §4.3: the MAC covers the message and the TSIG variables). */
export function updateMessage(zone: string, changes: UpdateChange[], key: TsigKey, now = Date.now()): Buffer {
  const id = randomInt(0, 0x10000);
  const header = (additional: number) => Buffer.concat([u16(id), u16(5 << 11), u16(1), u16(0), u16(changes.length), u16(additional)]);
  const body = Buffer.concat([wireName(zone), u16(TYPE.SOA), u16(CLASS.IN), ...changes.map(changeRecord)]);
  const algorithm = wireName(`${key.algorithm}.`);
  const timeSigned = u48(Math.floor(now / 1000));
  const fudge = u16(300);
  const variables = Buffer.concat([wireName(key.name), u16(CLASS.ANY), u32(0), algorithm, timeSigned, fudge, u16(0), u16(0)]);
  const mac = createHmac('sha256', Buffer.from(key.secret, 'base64'))
    .update(Buffer.concat([header(0), body, variables]))
    .digest();
  const rdata = Buffer.concat([algorithm, timeSigned, fudge, u16(mac.length), mac, u16(id), u16(0), u16(0)]);
  const tsig = Buffer.concat([wireName(key.name), u16(TYPE.TSIG), u16(CLASS.ANY), u32(0), u16(rdata.length), rdata]);
  return Buffer.concat([header(1), body, tsig]);
}

/** The response code of an answer, by name (`NOERROR`, `REFUSED`, `NOTAUTH`...). */
export function rcodeOf(answer: Buffer): string {
  if (answer.length < 12) throw new Error('a DNS answer shorter than its header');
  const code = answer[3]! & 0x0f;
  return RCODES[code] ?? `RCODE${code}`;
}

/**
 * Sends one update to `server` (`host:port`, port 53 when absent) and answers its response code.
 * Throws when no answer came within `timeoutMs` (the server did not answer: nothing is known).
 */
export async function sendUpdate(server: string, zone: string, changes: UpdateChange[], key: TsigKey, timeoutMs = 5000): Promise<string> {
  const at = server.lastIndexOf(':');
  const host = at > 0 && !server.endsWith(']') ? server.slice(0, at).replace(/^\[|\]$/g, '') : server;
  const port = at > 0 && !server.endsWith(']') ? Number(server.slice(at + 1)) : 53;
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to the update within ${timeoutMs} ms`)), timeoutMs);
      socket.once('message', (msg) => {
        clearTimeout(timer);
        try {
          resolve(rcodeOf(msg));
        } catch (err) {
          reject(err as Error);
        }
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      socket.send(updateMessage(zone, changes, key), port, host);
    });
  } finally {
    socket.close();
  }
}
