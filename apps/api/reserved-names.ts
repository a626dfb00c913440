import type { Site } from '../config/env.js';
import { badRequest } from './errors.js';
import { isCanary } from '../../core/canaries.js';

/**
 * A tenant's zone is `<name>.<site domain>`: a tenant named like one of the site's own hosts
 * (its nameservers above all, which every tenant zone's NS records name) would take that name
 * over with its own update key. Refused before anything is admitted or built (spec: DNS).
 */
export function refuseReservedName(site: Site | undefined, name: string): void {
  if (site?.reservedNames.has(name)) throw badRequest(`name: "${name}" is a name the site itself uses under its domain`);
  // The isolation check makes its canaries itself, through the create run (core/canaries.ts).
  if (isCanary(name)) throw badRequest(`name: "${name}" is reserved for the isolation check's canary tenants`);
}
