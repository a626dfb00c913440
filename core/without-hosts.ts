/**
 * A backend's answer as an operator or a tenant may read it (spec: error text never names a
 * backend host): the authority of every URL, every IP address and every `name:port` becomes
 * `[backend]`. Paths, statuses and the product's own words stay: they are what tells what to do.
 */
const URL_AUTHORITY = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s"'<>]+/gi;
const IPV6 = /\[[0-9a-f:.]+\](?::\d+)?/gi;
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g;
const NAME_PORT = /\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*:\d{2,5}\b/gi;

export function withoutHosts(text: string): string {
  return text.replace(URL_AUTHORITY, '$1[backend]').replace(IPV6, '[backend]').replace(IPV4, '[backend]').replace(NAME_PORT, '[backend]');
}
