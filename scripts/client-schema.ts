import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * The typed client's types (`client/schema.ts`), generated from the committed `openapi.yaml` by
 * openapi-typescript. `npm run client:write` writes them; the contract test compares this with the
 * committed file, so the client cannot drift from the document.
 */
export const CLIENT_SCHEMA = new URL('../client/schema.ts', import.meta.url);
const OPENAPI = new URL('../openapi.yaml', import.meta.url);

const HEADER = `/**
 * Generated from openapi.yaml by openapi-typescript (npm run client:write). Do not edit.
 */

`;

export async function clientSchema(): Promise<string> {
  // A field with a default is optional in a request (the API applies it); openapi-typescript's own
  // default would make callers send every such field.
  const ast = await openapiTS(readFileSync(OPENAPI, 'utf8'), { defaultNonNullable: false });
  return HEADER + astToString(ast);
}
