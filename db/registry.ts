import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { fileURLToPath } from 'node:url';
import * as schema from './schema/index.js';

export type Db = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
export type DatabaseState = 'ok' | 'unreachable' | 'migrating';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * The registry connection and its migration state. The service starts even when the database is
 * away; until the schema is migrated `/v1` answers 503 and `/readyz` says `migrating`.
 */
export class Registry {
  readonly sql: postgres.Sql;
  readonly db: Db;
  private migrated = false;

  constructor(
    private readonly url: string,
    private readonly log?: Logger,
    max = 10,
  ) {
    this.sql = postgres(url, {
      max,
      connect_timeout: 5,
      idle_timeout: 30,
      onnotice: () => {},
      // A cut connection must fail queries quickly, not hang a request.
      connection: { statement_timeout: 15_000 },
    });
    this.db = drizzle(this.sql, { schema });
  }

  get isMigrated(): boolean {
    return this.migrated;
  }

  /** Applies committed migrations, retrying until the database answers or `signal` aborts. */
  async migrate(signal?: AbortSignal): Promise<void> {
    for (let attempt = 1; !signal?.aborted; attempt++) {
      try {
        // The advisory lock is per session: it is taken and released on a connection of its own
        // (a reserved one cannot carry drizzle's migrator, and the pool may hold one connection),
        // so replicas starting together migrate one at a time and the lock never leaks.
        const lock = postgres(this.url, { max: 1, connect_timeout: 5, onnotice: () => {} });
        try {
          await lock`select pg_advisory_lock(7240001)`;
          try {
            await migrate(this.db, { migrationsFolder });
          } finally {
            await lock`select pg_advisory_unlock(7240001)`;
          }
        } finally {
          await lock.end({ timeout: 2 });
        }
        this.migrated = true;
        this.log?.info({}, 'registry schema migrated');
        return;
      } catch (err) {
        this.log?.warn({ err, attempt }, 'registry migration failed; retrying');
        await new Promise((r) => setTimeout(r, Math.min(5000, 250 * attempt)));
      }
    }
  }

  /** Readiness of the registry: never throws; the reason stays with the caller's log. */
  async state(): Promise<{ state: DatabaseState; reason?: unknown }> {
    try {
      await Promise.race([this.sql`select 1`, new Promise((_, reject) => setTimeout(() => reject(new Error('database ping timed out')), 3000))]);
    } catch (reason) {
      return { state: 'unreachable', reason };
    }
    return { state: this.migrated ? 'ok' : 'migrating' };
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 2 });
  }
}
