import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The first answer to an `Idempotency-Key` (IETF draft "The Idempotency-Key HTTP Header Field"),
 * kept for the site's window so a caller that lost it can have it again. Bound to the caller (a
 * keyed hash of the credential it presented, never the credential) and to a hash of the request.
 * `answer` is the status, content type and body sealed with the site's secrets key: a create's
 * answer carries its secrets. While the first request runs, `answer` is null and its API instance
 * keeps `heartbeat_at` fresh, so a repeat waits for it, and takes over if that instance died.
 * `object` names what the request created or issued (`tenants/<t>/wifi-keys/<name>`, from the
 * route): its kept answers are purged when it is deleted or its secret replaced (issue 27 item 8).
 * Null on rows kept before it existed; those go when their window ends.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    caller: text('caller').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status'),
    answer: text('answer'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    object: text('object'),
  },
  (t) => [
    primaryKey({ columns: [t.caller, t.key] }),
    index('idempotency_keys_expires_at').on(t.expiresAt),
    // text_pattern_ops: the purge of a tenant matches every object below it by prefix (LIKE 'x/%').
    index('idempotency_keys_object').on(t.object.op('text_pattern_ops')),
  ],
);
