import { ConfigError, loadConfig } from '../config/env.js';
import { createLogger } from './logger.js';
import { armStopBound } from '../config/stop-bound.js';
import { API_STOP_BOUND_MS } from './stop-bound.js';

/** The API process: refuses to start on bad configuration, naming the variable. */
async function main(): Promise<void> {
  const config = loadConfig();
  // Loaded once the configuration passed: a refusal comes at once, not after loading the app.
  const { startApi } = await import('./server.js');
  const log = createLogger(config.env.LOG_LEVEL, 'api');
  const api = await startApi({ config, log });
  log.info({ url: api.url, site: config.site !== undefined, metrics: api.metricsUrl && `${api.metricsUrl}/metrics` }, 'api listening');
  const stop = () => {
    log.info({}, 'api stopping');
    armStopBound(log, API_STOP_BOUND_MS);
    // Ends by itself once everything is closed; an exit here would hide a handle left open.
    void api.close().then(() => log.info({}, 'api stopped'));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  // Bad configuration (found when loading it or when starting on it) names the variable only.
  if (err instanceof ConfigError) {
    process.stderr.write(`api: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`api failed: ${(err as Error).message}\n`);
  process.exit(1);
});
