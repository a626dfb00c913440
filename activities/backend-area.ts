import type { SiteSettings } from '../core/site.js';
import type { Site } from './site.js';
import { BackendHttp } from '../backends/http/client.js';
import type { BackendCalls } from '../backends/http/calls.js';

/**
 * A backend area (`activities/<area>/area.ts`): how the site's settings bind the area's port to its
 * product adapter, and the read-only probes `worker --check-backends` runs against that product.
 * `activities/backend-areas.ts` lists every area once; the worker, the bench and the check take
 * the ports and the probes from that list.
 */
export interface BackendArea<K extends string = string, P = unknown, S extends SiteSettings | undefined = SiteSettings | undefined> {
  /** The port's name in the steps' `deps.ports`. */
  port: K;
  /** The area's slice of the site (`settings.ts` in its folder): `site[settings.key]`. */
  settings?: S;
  /**
   * The port (its interface in the area's `port.ts`, or the adapter's own type) bound to the
   * product, or undefined when the site does not configure this backend: the area's `bind`
   * return type is the port's type in `BackendPorts`. `calls`, the binding worker's pacing and
   * telemetry (backends/http/calls.ts), goes to every client the adapter makes.
   */
  bind(site: Site, timeoutMs: number, calls: BackendCalls): P;
  /** The product's read-only checks; none when the site does not configure it. */
  probes?(site: Site, timeoutMs: number): Probe[];
  /**
   * Closes what the bound port holds open of its own (a connection that reconnects by itself),
   * so a worker that stopped holds nothing that keeps its process alive. None for a port whose
   * calls leave nothing open.
   */
  release?(port: P): Promise<void>;
}

/** One check of `--check-backends`: what answered, or a BackendError saying why not. */
export interface Probe {
  backend: string;
  /** The URL checked (no credential is ever part of it). */
  url: string;
  run(): Promise<string>;
}

export const probe = (backend: string, url: string, run: () => Promise<string>): Probe => ({ backend, url, run });

/** A JSON API client as the adapters make them: the site's timeout, CA bundle and pin. */
export const jsonApi = (product: string, url: string, headers: Record<string, string>, timeoutMs: number, ca: string | undefined, pin?: string) =>
  new BackendHttp(product, url, { accept: 'application/json', ...headers }, timeoutMs, { ca, pin });
