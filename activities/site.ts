import type { z } from 'zod';
import { siteSchemaOf, type CoreSite, type SiteSettings } from '../core/site.js';
import type { BackendArea } from './backend-area.js';
import { BACKEND_AREAS } from './backend-areas.js';

type Area = (typeof BACKEND_AREAS)[number];
type SettingsOf<A> = A extends BackendArea<string, unknown, infer S> ? Exclude<S, undefined> : never;
type SliceOf<S> = S extends SiteSettings<string, z.ZodRawShape, infer T> ? T : never;

/**
 * The site: the core settings (core/site.ts) and each backend area's slice under its key
 * (`site.dns`, `site.wifi`...), as `activities/<area>/settings.ts` reads it. An optional backend's
 * slice is undefined where the site leaves it out.
 */
export type Site = CoreSite & { [S in SettingsOf<Area> as S['key']]: SliceOf<S> };

/** Every variable of the site, core and areas', parsed and checked together (apps/config/env.ts). */
export const siteSchema = siteSchemaOf(
  (BACKEND_AREAS as readonly BackendArea[]).flatMap((area) => (area.settings ? [area.settings] : [])),
) as unknown as z.ZodPipe<z.ZodObject<z.ZodRawShape>, z.ZodTransform<Site>>;
