import { resolverSettings } from './settings.js';
import type { ResolverPort } from './port.js';
import { type BackendArea, jsonApi, probe } from '../backend-area.js';
import { createRecursorAdapter } from '../../backends/recursor/recursor.js';
import { checkRecursor } from './check.js';

/** PowerDNS Recursor: the site resolver's forwards of each tenant's zones. */
export const resolverArea: BackendArea<'resolver', ResolverPort, typeof resolverSettings> = {
  port: 'resolver',
  settings: resolverSettings,
  bind: (site, timeoutMs, calls) => {
    const recursor = createRecursorAdapter({ apiUrl: site.resolver.apiUrl, apiKey: site.resolver.apiKey, timeoutMs, ca: site.resolver.ca, calls });
    const forwardTo = site.resolver.forwardTo;
    return {
      ensure: (spec) => recursor.ensure({ zones: spec.zones, forwardTo }),
      plan: (spec) => recursor.plan({ zones: spec.zones, forwardTo }),
      remove: (spec) => recursor.remove(spec),
    };
  },
  // The Recursor shares the Authoritative's API: the server object carries the version, the
  // config list api-config-dir; a forward of the check's own proves the directory takes them.
  probes: (site, timeoutMs) => [
    probe('recursor', site.resolver.apiUrl, () =>
      checkRecursor(jsonApi('recursor', site.resolver.apiUrl, { 'X-API-Key': site.resolver.apiKey }, timeoutMs, site.resolver.ca)),
    ),
  ],
};
