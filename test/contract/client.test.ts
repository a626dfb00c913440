import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA, clientSchema } from '../../scripts/client-schema.js';

/**
 * The typed client (`client/`) is generated from `openapi.yaml`; the committed types must be what
 * openapi-typescript makes of the committed document today, or the client has drifted from it.
 * Regenerate with `npm run openapi:write` (document, then client) or `npm run client:write`.
 */
describe('the typed client', () => {
  it('is generated from the committed openapi.yaml', async () => {
    expect(readFileSync(CLIENT_SCHEMA, 'utf8'), 'client/schema.ts is stale: run npm run client:write').toBe(await clientSchema());
  });

  it('types every operation of the document', async () => {
    const doc = (await import('yaml')).parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as { paths: Record<string, object> };
    const types = readFileSync(CLIENT_SCHEMA, 'utf8');
    for (const path of Object.keys(doc.paths)) expect(types).toContain(`    "${path}": {`);
  });
});
