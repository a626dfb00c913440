import { z } from '@hono/zod-openapi';

export const Liveness = z.object({ status: z.literal('ok') }).openapi('Liveness');
export const Readiness = z.object({ status: z.enum(['ok', 'unavailable']), database: z.enum(['ok', 'unreachable', 'migrating']) }).openapi('Readiness');
export const Version = z.object({ version: z.string(), commit: z.string(), built: z.string() }).openapi('Version');
