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
 * How long a pooled connection waits before it connects again after a failed attempt, in seconds.
 * A query sent while the database is away is held by its connection until a connect succeeds. The
 * driver's default grows the wait to 10-20 s after a few failed connects, counted over the whole
 * pool: after a 6 s restart, held queries ran up to 20 s late, past the 15 s bound of a registry
 * activity's attempt. The attempt was retried and the run went on, and the abandoned attempt's
 * write landed afterwards (a ready workload set back to provisioning; test/reliability/
 * database-cut.test.ts). Capped at 1 s, a held query runs within about a second of the database's
 * return; ten connections trying once a second while it is away cost PostgreSQL nothing.
 */
function reconnectDelaySeconds(failedConnects: number): number {
  return Math.min(0.05 * 2 ** failedConnects, 1) * (0.5 + Math.random() / 2);
}

/**
 * The registry connection and its migration state. The service starts even when the database is
 * away; until the schema is migrated `/v1` answers 503 and `/readyz` says `migrating`.
 */
export class Registry {
  readonly sql: postgres.Sql;
  readonly db: Db;
  /**
   * The registry on a connection of its own, apart from the pool: for a write that must commit at
   * once while its caller holds a pooled connection in a transaction that waits on locks (the SDN
   * lock tokens, backends/proxmox/sdn-lock.ts). From the pool, it could wait for a connection
   * that every waiter holds. Connected on first use.
   */
  readonly ownConnection: Db;
  private readonly ownSql: postgres.Sql;
  private migrated = false;

  constructor(
    private readonly url: string,
    private readonly log?: Logger,
    max = 10,
  ) {
    const pool = (size: number) =>
      postgres(url, {
        max: size,
        connect_timeout: 5,
        idle_timeout: 30,
        backoff: reconnectDelaySeconds,
        onnotice: () => {},
        // A cut connection must fail queries quickly, not hang a request.
        connection: { statement_timeout: 15_000 },
      });
    this.sql = pool(max);
    this.db = drizzle(this.sql, { schema });
    this.ownSql = pool(1);
    this.ownConnection = drizzle(this.ownSql, { schema });
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
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([this.sql`select 1`, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('database ping timed out')), 3000)))]);
    } catch (reason) {
      return { state: 'unreachable', reason };
    } finally {
      // A ping's timer left running held a stopping API up to 3 s after its last /readyz.
      clearTimeout(timer);
    }
    return { state: this.migrated ? 'ok' : 'migrating' };
  }

  async close(): Promise<void> {
    await Promise.all([this.sql.end({ timeout: 2 }), this.ownSql.end({ timeout: 2 })]);
  }
}
