import type { Context } from 'hono';
import { paramError } from './envelope.js';

/**
 * Parameters as pve-http-server collects them: the body (form-encoded, or JSON when the
 * content type says so) with the query string merged over it, then checked against the
 * method's JSON schema by PVE::JSONSchema, whose messages these reproduce.
 */
export type Raw = Record<string, unknown>;
export type Value = string | number | boolean;

export interface Prop {
  type: 'string' | 'integer' | 'boolean';
  optional?: boolean;
  min?: number;
  max?: number;
  pattern?: RegExp;
  enum?: readonly string[];
  /** Returns the reason a value is refused, as the format's verifier dies with it. */
  format?: (v: string) => string | undefined;
}

export type Schema = Record<string, Prop>;

export async function readParams(c: Context): Promise<Raw> {
  const params: Raw = {};
  if (c.req.method === 'POST' || c.req.method === 'PUT') {
    const text = await c.req.text();
    const ct = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (ct === 'application/json' && text) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw paramError({ body: 'malformed JSON' });
      }
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) Object.assign(params, parsed);
    } else if (text) {
      for (const [k, v] of new URLSearchParams(text)) params[k] = v;
    }
  }
  for (const [k, v] of Object.entries(c.req.query())) params[k] = v;
  return params;
}

function coerce(name: string, raw: unknown, p: Prop, errors: Record<string, string>): Value | undefined {
  if (p.type === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    const s = String(raw).toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(s)) return true;
    if (['0', 'false', 'no', 'off'].includes(s)) return false;
    errors[name] = `type check ('boolean') failed - got '${String(raw)}'`;
    return undefined;
  }
  if (p.type === 'integer') {
    const s = String(raw);
    if (!/^-?\d+$/.test(s)) {
      errors[name] = `type check ('integer') failed - got '${s}'`;
      return undefined;
    }
    const n = Number(s);
    if (p.min !== undefined && n < p.min) errors[name] = `value must have a minimum value of ${p.min}`;
    else if (p.max !== undefined && n > p.max) errors[name] = `value must have a maximum value of ${p.max}`;
    return errors[name] ? undefined : n;
  }
  const s = String(raw);
  if (p.enum && !p.enum.includes(s)) {
    errors[name] = `value '${s}' does not have a value in the enumeration '${p.enum.join(', ')}'`;
  } else if (p.pattern && !new RegExp(`^(?:${p.pattern.source})$`).test(s)) {
    errors[name] = 'value does not match the regex pattern';
  } else if (p.format) {
    const why = p.format(s);
    if (why) errors[name] = why;
  }
  return errors[name] ? undefined : s;
}

/**
 * Check `params` against `schema` (additional properties refused, like every PVE method here)
 * and return the typed values; a refusal is one 400 naming every bad parameter.
 */
export function validate(params: Raw, schema: Schema): Record<string, Value> {
  const errors: Record<string, string> = {};
  const out: Record<string, Value> = {};
  for (const [name, raw] of Object.entries(params)) {
    const p = schema[name];
    if (!p) {
      errors[name] = 'property is not defined in schema and the schema does not allow additional properties';
      continue;
    }
    if (raw === undefined || raw === null) continue;
    const v = coerce(name, raw, p, errors);
    if (v !== undefined) out[name] = v;
  }
  for (const [name, p] of Object.entries(schema)) {
    if (!p.optional && out[name] === undefined && !errors[name]) errors[name] = 'property is missing and it is not optional';
  }
  if (Object.keys(errors).length > 0) throw paramError(errors);
  return out;
}

// Formats PVE registers and the methods below use.

export const pveIdFormat = (what: string) => (v: string) =>
  !/^[a-z][a-z0-9]*[a-z0-9]$/i.test(v)
    ? `${what} ID '${v}' contains illegal characters`
    : v.length > 8
      ? `${what} ID '${v}' can't be more length than 8 characters`
      : undefined;

export function ipv4ToInt(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + p, 0);
}

export const ipFormat = (v: string) => (ipv4ToInt(v) === undefined ? `value does not look like a valid IP address` : undefined);

export const cidrFormat = (v: string) => {
  const [ip, mask] = v.split('/');
  return ip !== undefined && ipv4ToInt(ip) !== undefined && mask !== undefined && /^\d+$/.test(mask) && Number(mask) <= 32
    ? undefined
    : 'value does not look like a valid CIDR network';
};

export const dnsNameFormat = (v: string) =>
  /^(?=.{1,255}$)([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*$/.test(v)
    ? undefined
    : `value does not look like a valid DNS name`;

/** `delete` lists in update methods: comma, semicolon or space separated option names. */
export function splitList(v: Value | undefined): string[] {
  return v === undefined
    ? []
    : String(v)
        .split(/[,;\s]+/)
        .filter(Boolean);
}

export const VMID: Prop = { type: 'integer', min: 100, max: 999_999_999 };
