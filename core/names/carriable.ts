/**
 * Characters the backends cannot carry in a value the service hands them, so the API refuses them
 * with a 400 up front instead of a step that fails on every repeat (issue 16 item 8):
 *
 * - C0 and C1 control characters and DEL: MQTT forbids or discourages them in topics (mosquitto's
 *   mosquitto_validate_utf8 refuses U+0001..U+001F and U+007F..U+009F), and in cloud-init's YAML
 *   or a Proxmox config line a newline splits the value;
 * - U+2028 and U+2029 (and U+0085, a C1): YAML 1.1, which cloud-init reads, takes them as line
 *   breaks, and Proxmox's SSH key check refuses them, so a key carrying one never lands;
 * - lone UTF-16 surrogates: JSON can carry `\ud800`, UTF-8 cannot, so no backend gets the value.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const UNCARRIABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot reach a backend as one line, or undefined when it can. */
export function uncarriableReason(text: string): string | undefined {
  const m = UNCARRIABLE.exec(text);
  if (!m) return undefined;
  const code = m[0].charCodeAt(0);
  if (code >= 0xd800 && code <= 0xdfff) return 'contains an unpaired UTF-16 surrogate';
  if (code === 0x2028 || code === 0x2029) return 'contains a Unicode line or paragraph separator (U+2028, U+2029)';
  return 'contains a control character';
}
