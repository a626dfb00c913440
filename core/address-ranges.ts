/**
 * Address arithmetic for fixed device addresses: a trust class owns a range of the shared
 * device network set aside for tenants (e.g. `10.200.0.64-10.200.0.127`), tenants reserve
 * addresses in it, and each tenant may hold at most its share.
 */
export interface AddressRange {
  first: number;
  last: number;
}

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);

/** The address as a 32-bit number, or undefined when it is not dotted-quad IPv4. */
export function parseIPv4(text: string): number | undefined {
  const m = IPV4.exec(text);
  if (!m) return undefined;
  return ((Number(m[1]) << 24) >>> 0) + (Number(m[2]) << 16) + (Number(m[3]) << 8) + Number(m[4]);
}

export function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** `a.b.c.d-e.f.g.h` (inclusive, first <= last); undefined when malformed. */
export function parseRange(text: string): AddressRange | undefined {
  const parts = text.split('-').map((p) => p.trim());
  if (parts.length !== 2) return undefined;
  const first = parseIPv4(parts[0]!);
  const last = parseIPv4(parts[1]!);
  if (first === undefined || last === undefined || first > last) return undefined;
  return { first, last };
}

/** `a.b.c.d/len` as its network's first and last address; undefined when malformed or host bits set. */
export function parseCidr(text: string): AddressRange | undefined {
  const [addr, lenText, extra] = text.split('/');
  if (addr === undefined || lenText === undefined || extra !== undefined || !/^\d{1,2}$/.test(lenText)) return undefined;
  const base = parseIPv4(addr);
  const len = Number(lenText);
  if (base === undefined || len > 32) return undefined;
  const size = 2 ** (32 - len);
  if (base % size !== 0) return undefined;
  return { first: base, last: base + size - 1 };
}

export function rangeSize(r: AddressRange): number {
  return r.last - r.first + 1;
}

export function inRange(r: AddressRange, address: string): boolean {
  const n = parseIPv4(address);
  return n !== undefined && n >= r.first && n <= r.last;
}

/**
 * Whether a trust class's range fits its device network and leaves out the network and
 * broadcast addresses, which DHCP can never hand to a device.
 */
export function rangeFitsSubnet(r: AddressRange, subnet: AddressRange): boolean {
  return r.first > subnet.first && r.last < subnet.last;
}

/** The lowest address of the range nobody holds, or undefined when the range is full. */
export function lowestFree(r: AddressRange, taken: Iterable<string>): string | undefined {
  const used = new Set<number>();
  for (const t of taken) {
    const n = parseIPv4(t);
    if (n !== undefined) used.add(n);
  }
  for (let n = r.first; n <= r.last; n++) if (!used.has(n)) return formatIPv4(n);
  return undefined;
}

export type AddressChoice = { ok: true; address: string } | { ok: false; reason: 'not-an-address' | 'outside-range' | 'taken' | 'range-full' | 'share-full' };

/**
 * Pick the address for a new reservation: the requested one, or the lowest free one. `taken`
 * is every address held in the range (all tenants); `heldByTenant` how many the tenant holds;
 * `share` the most one tenant may hold. The reasons map to the spec's answers: outside-range
 * and not-an-address are 400; taken, range-full and share-full are 409.
 */
export function chooseAddress(input: { range: AddressRange; taken: Iterable<string>; heldByTenant: number; share: number; requested?: string }): AddressChoice {
  const { range, requested } = input;
  if (requested !== undefined) {
    if (parseIPv4(requested) === undefined) return { ok: false, reason: 'not-an-address' };
    if (!inRange(range, requested)) return { ok: false, reason: 'outside-range' };
  }
  if (input.heldByTenant >= input.share) return { ok: false, reason: 'share-full' };
  const taken = [...input.taken];
  if (requested !== undefined) {
    const n = parseIPv4(requested);
    return taken.some((t) => parseIPv4(t) === n) ? { ok: false, reason: 'taken' } : { ok: true, address: requested };
  }
  const free = lowestFree(range, taken);
  return free ? { ok: true, address: free } : { ok: false, reason: 'range-full' };
}
