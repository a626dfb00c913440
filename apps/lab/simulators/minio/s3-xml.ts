import type { Context } from 'hono';

export const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

export function xml(c: Context, body: string): Response {
  return c.body(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, 200, { 'Content-Type': 'application/xml' });
}

/** `2006-01-02T15:04:05.000Z`, the time format of S3 listings. */
export const iso = (d: Date) => d.toISOString();
