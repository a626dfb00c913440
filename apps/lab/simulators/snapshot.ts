/**
 * The simulators' state on disk, for a lab that keeps its site across restarts (`npm start`): their
 * in-memory models (Maps, Sets, Buffers, Dates in plain objects) written as tagged JSON to one file,
 * and read back into the live objects on the next start. The file is written whole through a
 * temporary file and a rename, so a crash leaves the previous snapshot, never half a one.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/** JSON with Map, Set, Buffer/Uint8Array and Date kept (tagged `$map`, `$set`, `$bytes`, `$date`). */
export function encodeSnapshot(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    // `this[key]` is the value before toJSON (a Date or Buffer turns into a string or object first).
    const raw = key === '' ? v : this[key];
    if (raw instanceof Map) return { $map: [...raw] };
    if (raw instanceof Set) return { $set: [...raw] };
    if (raw instanceof Uint8Array) return { $bytes: Buffer.from(raw).toString('base64') };
    if (raw instanceof Date) return { $date: raw.toISOString() };
    return v;
  });
}

export function decodeSnapshot(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (Array.isArray(o.$map)) return new Map(o.$map as Array<[unknown, unknown]>);
      if (Array.isArray(o.$set)) return new Set(o.$set as unknown[]);
      if (typeof o.$bytes === 'string') return Buffer.from(o.$bytes, 'base64');
      if (typeof o.$date === 'string') return new Date(o.$date);
    }
    return v;
  });
}

/**
 * One simulator's part of the snapshot: what to write (`save`) and how to put it back into the
 * live objects (`load`), which the simulator's routes hold by reference, so loading mutates them.
 */
export interface SnapshotPart {
  save(): unknown;
  load(data: unknown): void;
}

/**
 * Copies the saved fields onto `target` (the live state object), skipping `except`. A Map, Set or
 * array the live object already holds is refilled in place, not replaced: a simulator's routes may
 * hold it by reference (Grafana's were built with `state.orgs`), and a replaced one left them
 * reading the empty collection of the start, so after a restart a new tenant's org, created in the
 * new map, was not found by the route that sets its address.
 */
export function assignFields(target: object, data: unknown, except: string[] = []): void {
  const live = target as Record<string, unknown>;
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    if (except.includes(k)) continue;
    const held = live[k];
    if (held instanceof Map && v instanceof Map) {
      held.clear();
      for (const [key, value] of v) held.set(key, value);
    } else if (held instanceof Set && v instanceof Set) {
      held.clear();
      for (const value of v) held.add(value);
    } else if (Array.isArray(held) && Array.isArray(v)) {
      // A loop, not a spread into splice: a kept site's long list (a log store's lines) would pass
      // the engine's limit on a call's arguments.
      held.length = 0;
      for (const value of v as unknown[]) held.push(value);
    } else live[k] = v;
  }
}

/** The saved fields of `source`, without `except` (call logs and the like, which only grow). */
export function pickFields(source: object, except: string[] = []): Record<string, unknown> {
  return Object.fromEntries(Object.entries(source).filter(([k]) => !except.includes(k)));
}

export interface SnapshotStore {
  /** Write the snapshot now if it changed since the last write. */
  flush(): void;
  /** A simulator answered a request: flush soon (`soonMs`), once for a burst of requests. */
  touch(): void;
  /** A last flush and no more periodic ones. */
  stop(): void;
}

/**
 * Loads `file` into the parts (when it exists) and then writes it every `intervalMs` when any
 * part changed, so a lab killed without a stop loses at most that much of the simulators' state.
 */
export function persistSnapshot(file: string, parts: Record<string, SnapshotPart>, intervalMs = 1000, soonMs = 20): SnapshotStore {
  if (existsSync(file)) {
    const saved = decodeSnapshot(readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const [name, part] of Object.entries(parts)) if (saved[name] !== undefined) part.load(saved[name]);
  }
  let last = '';
  const flush = () => {
    const text = encodeSnapshot(Object.fromEntries(Object.entries(parts).map(([name, part]) => [name, part.save()])));
    if (text === last) return;
    writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    last = text;
  };
  flush();
  const tryFlush = () => {
    try {
      flush();
    } catch (e) {
      process.stderr.write(`lab: could not save the simulators' state: ${(e as Error).message}\n`);
    }
  };
  // Periodically too: a task's work (a clone, a start) changes the state after its request answered.
  const timer = setInterval(tryFlush, intervalMs);
  timer.unref();
  let soon: NodeJS.Timeout | undefined;
  return {
    flush,
    touch: () => {
      soon ??= setTimeout(() => {
        soon = undefined;
        tryFlush();
      }, soonMs);
    },
    stop: () => {
      clearInterval(timer);
      if (soon) clearTimeout(soon);
      flush();
    },
  };
}
