import { createTenantClient, type ApiClient } from '../../client/index.js';

/**
 * The typed client (`client/`) for a test site: suites call the API the way its users' code does.
 * Deliberately malformed requests (unknown fields, raw bodies, wrong types) stay on `site.call`,
 * since the typed client refuses to build them.
 */
export function clientFor(site: { url: string; operatorToken: string }, token?: string | null): ApiClient {
  return createTenantClient({ baseUrl: site.url, token: token === undefined ? site.operatorToken : (token ?? undefined) });
}

/** An openapi-fetch answer in the shape the suites assert on (`status`, `body`, `headers`, `text`). */
export async function answered(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const { data, error, response } = await call;
  const body = data ?? error;
  return { status: response.status, body, headers: response.headers, text: body === undefined ? '' : JSON.stringify(body) };
}
