import { accessSync, closeSync, constants, existsSync, fchmodSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from './args.js';
import { SECRET_FIELDS } from './output.js';
import { readSmallFile } from './small-file.js';

/** The object whose secrets a command's answer carries: named for a person, and recognised in a file. */
export interface SecretsOwner {
  what: string;
  is(object: Record<string, unknown>): boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A failed call's answer wraps its partial object (spec: 502 `{error, tenant}`, `{error, wifi_key}`, ...). */
const WRAPPERS = ['tenant', 'wifi_key', 'broker_account'];

/** The field of a failed call's answer that holds its partial object; undefined for any other answer. */
export function wrapperOf(answer: unknown): string | undefined {
  if (!isObject(answer) || typeof answer.error !== 'string') return undefined;
  return WRAPPERS.find((k) => isObject(answer[k]));
}

/** The object an answer, or a secrets file holding one, is about. */
export function objectOf(answer: unknown): Json | undefined {
  if (!isObject(answer)) return undefined;
  if (typeof answer.error !== 'string') return answer;
  const wrapper = wrapperOf(answer);
  return wrapper ? (answer[wrapper] as Json) : undefined;
}

/**
 * Checked before the call, so that no answer's secrets (shown once) are lost for want of a place:
 * the file is new in a folder that can be written, or it already holds this same object's secrets
 * (a resume, a repeat, a reconcile beside the create). Another object's secrets, or a file that is
 * not a secrets file at all, are never written over.
 */
export function checkSecretsFile(path: string, owner: SecretsOwner): void {
  if (!existsSync(path)) {
    try {
      accessSync(dirname(path), constants.W_OK);
    } catch (e) {
      throw new UsageError(`--secrets-file ${path}: its folder cannot be written (${(e as NodeJS.ErrnoException).code})`);
    }
    return;
  }
  let held: unknown;
  try {
    held = JSON.parse(readSmallFile(path));
    accessSync(path, constants.W_OK);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? 'not JSON';
    throw new UsageError(`--secrets-file ${path} exists and is not a secrets file tenantctl can write (${why}): name a new file`);
  }
  const object = objectOf(held);
  if (!object || !owner.is(object)) {
    throw new UsageError(
      `--secrets-file ${path} holds ${object ? describe(object) : 'something else'}, not the secrets of ${owner.what}; they are shown nowhere else, so name a new file`,
    );
  }
}

/** An object as a person tells it, by its name only (never a secret). */
function describe(object: Json): string {
  const name = object.username ?? object.name;
  return typeof name === 'string' && /^[a-z0-9-]{1,64}$/.test(name) ? `the secrets of "${name}"` : 'the secrets of another object';
}

/**
 * Writes the answer to a file only its owner can read (0600, also when it existed before). The
 * secrets the file held for the same object that this answer does not carry stay in it (a
 * reconcile's answer carries no api_token; the create's file keeps it); a secret the answer carries
 * replaces the one held. Returns the fields kept, dotted.
 */
export function writeSecretsFile(path: string, answer: unknown): string[] {
  const kept: string[] = [];
  const held = existsSync(path) ? objectOf(JSON.parse(readSmallFile(path))) : undefined;
  const written = structuredClone(answer);
  const into = objectOf(written);
  if (held && into) keepMissing(held, into, '', kept);
  const fd = openSync(path, 'w', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, `${JSON.stringify(written, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  return kept;
}

/** Copies into `to` every secret of `from` that `to` lacks, through nested objects. */
function keepMissing(from: Json, to: Json, at: string, kept: string[]): void {
  for (const [k, v] of Object.entries(from)) {
    if (SECRET_FIELDS.has(k) && typeof v === 'string' && to[k] === undefined) {
      to[k] = v;
      kept.push(`${at}${k}`);
    } else if (isObject(v)) {
      if (to[k] === undefined) {
        const holder: Json = {};
        keepMissing(v, holder, `${at}${k}.`, kept);
        if (Object.keys(holder).length) to[k] = holder;
      } else if (isObject(to[k])) keepMissing(v, to[k], `${at}${k}.`, kept);
    }
  }
}
