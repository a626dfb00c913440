import { Registry } from '../../db/registry.js';
import { loadConfig } from '../config/env.js';
import { createApp, openApiDocument } from './app.js';
import { createLogger } from './logger.js';

/**
 * The OpenAPI document the code generates, built from an app that is never served (no database
 * connection is opened: postgres.js connects on first query).
 */
export function buildContractApp() {
  const config = loadConfig({ OPERATOR_TOKEN: 'x'.repeat(32), DATABASE_URL: 'postgres://contract@127.0.0.1:1/none' });
  const registry = new Registry(config.env.DATABASE_URL);
  const app = createApp({
    config,
    registry,
    log: createLogger('silent', 'contract'),
    build: { version: '0', commit: '0', built: '0' },
    operations: undefined,
  });
  return { app, registry };
}

export function generatedDocument() {
  const { app } = buildContractApp();
  return openApiDocument(app);
}
