/**
 * MAC addresses as the admission and device routes accept them: `aa:bb:cc:dd:ee:ff`,
 * `AA-BB-CC-DD-EE-FF` or `aabbccddeeff`, one separator style throughout. Everything the
 * service stores or sends to a backend is the lowercase colon form, so comparisons are
 * plain string equality.
 */
const FORMS = [/^([0-9a-f]{2})(?::([0-9a-f]{2})){5}$/i, /^([0-9a-f]{2})(?:-([0-9a-f]{2})){5}$/i, /^[0-9a-f]{12}$/i];

/** The lowercase colon form, or undefined when `input` is none of the accepted forms. */
export function normalizeMac(input: string): string | undefined {
  if (!FORMS.some((re) => re.test(input))) return undefined;
  const hex = input.replace(/[:-]/g, '').toLowerCase();
  return hex.match(/../g)!.join(':');
}

/**
 * Why `input` is no MAC a network card can have, or null. The I/G bit (the first octet's low bit)
 * marks a group address: multicast, and broadcast (all ones) among them; all zero is no address.
 * A device registered with one could never be given a DHCP reservation or a bound Wi-Fi key.
 */
export function nicMacReason(input: string): string | null {
  const mac = normalizeMac(input);
  if (!mac) return 'must be a MAC like aa:bb:cc:dd:ee:ff, AA-BB-CC-DD-EE-FF or aabbccddeeff';
  if (mac === 'ff:ff:ff:ff:ff:ff') return "the broadcast address is no network card's";
  if ((parseInt(mac.slice(0, 2), 16) & 1) === 1) return "a multicast address (odd first octet) is no network card's";
  if (mac === '00:00:00:00:00:00') return "the all zero address is no network card's";
  return null;
}
