import { describe, expect, it } from 'vitest';
import { withoutHosts } from './without-hosts.js';

describe('withoutHosts: a backend answer an operator may read names no host', () => {
  it.each([
    ['an IPv4 address with its port', 'PATCH /api/v1/zones/x: connect ECONNREFUSED 127.0.0.1:8081', 'PATCH /api/v1/zones/x: connect ECONNREFUSED [backend]'],
    ['a bare IPv4 address', 'no route to 10.0.0.7', 'no route to [backend]'],
    ['an IPv6 address in brackets', 'connect ECONNREFUSED [::1]:8006', 'connect ECONNREFUSED [backend]'],
    ['a URL keeps its scheme and path', 'GET https://pve1.site.example:8006/api2/json/nodes -> 500', 'GET https://[backend]/api2/json/nodes -> 500'],
    ['a name with a port', 'getaddrinfo ENOTFOUND kea.site.example:8000', 'getaddrinfo ENOTFOUND [backend]'],
    ["a zone name without a port stays (it is the tenant's own)", 'zone acme.lab.example. not found', 'zone acme.lab.example. not found'],
    [
      'a path and a status stay',
      'PATCH /api/v1/servers/localhost/zones/acme -> 503 Service Unavailable',
      'PATCH /api/v1/servers/localhost/zones/acme -> 503 Service Unavailable',
    ],
  ])('%s', (_why, text, expected) => {
    expect(withoutHosts(text)).toBe(expected);
  });
});
