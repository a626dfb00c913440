import { Scalar } from '@scalar/hono-api-reference';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AppEnv } from '../../context.js';

/** Where the page loads the viewer from: this service, never a CDN (sites without internet, the lab). */
export const VIEWER_PATH = '/docs/viewer.js';

/**
 * The viewer's browser bundle as the installed `@scalar/api-reference` ships it (what the public
 * CDN serves). Its package exports do not name the file, so it is found beside the main entry.
 */
function viewerFile(): string {
  const main = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return join(dirname(main), 'browser', 'standalone.js');
}

/**
 * The interactive API reference at `/docs`, working offline: the viewer's bundle comes from the
 * installed package, its fonts are the browser's (the default ones load from the vendor's site),
 * its telemetry and AI agent are off, and every tag is open so each operation is listed. The bundle (4 MB) is read on first request and kept.
 */
export function register(app: OpenAPIHono<AppEnv>): void {
  let bundle: Promise<Buffer> | undefined;
  app.get(VIEWER_PATH, async (c) => {
    bundle ??= readFile(viewerFile());
    const body = await bundle;
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(new Uint8Array(body));
  });
  app.get(
    '/docs',
    Scalar({
      url: '/openapi.json',
      pageTitle: 'Tenant provisioning API',
      cdn: VIEWER_PATH,
      withDefaultFonts: false,
      telemetry: false,
      // Its AI chat and hosted tools live on the vendor's site: off, as is everything that leaves this one.
      agent: { disabled: true },
      showDeveloperTools: 'never',
      defaultOpenAllTags: true,
      // Every route takes the bearer token: the scheme is chosen, the reader pastes only the token.
      authentication: { preferredSecurityScheme: 'bearer' },
    }),
  );
}
