/**
 * Caddy's admin config store, the subset a gateway operator's tooling uses: traversal of the JSON
 * config by path (GET/POST/PUT/PATCH/DELETE /config/...), `@id` indexing (/id/<id>/...), and the
 * all-or-nothing apply (a change that fails to load leaves the running config untouched).
 *
 * Followed: caddyserver/caddy admin.go (unsyncedConfigAccess, indexConfigObjects, handleConfigID,
 * APIError encoding `{"error": "..."}`) and https://caddyserver.com/docs/api:
 *   POST appends to arrays or sets a value, PUT creates a key (refused if it exists) or inserts into
 *   an array at an index, PATCH replaces an existing key or array element, DELETE removes.
 * Error statuses as Caddy returns them (handleConfig / handleError): unknown @id 404, read traversal
 * errors 400, a write without a JSON content type 400, failed changes 500 (Caddy wraps neither
 * traversal nor load errors of /config changes in an APIError, so they surface as 500).
 */
import type { Json, JsonObject } from '../../../../activities/log-store/routes.js';

export class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone<T extends Json>(v: T): T {
  return structuredClone(v);
}

/** Go's strconv.Atoi, strictly: what Caddy uses for array indexes in paths. */
function atoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number.parseInt(s, 10) : undefined;
}

/**
 * Port of Caddy's unsyncedConfigAccess over `root` (an object holding the `config` key).
 * Returns the value read for GET; mutates `root` otherwise.
 */
function access(root: JsonObject, method: string, path: string, val: Json | undefined): Json | undefined {
  const clean = path.replace(/^\/+|\/+$/g, '');
  if (clean === '') throw new Error('no traversable path');
  let parts = clean.split('/');
  const ellipses = parts[parts.length - 1] === '...';
  if (ellipses) parts = parts.slice(0, -1);

  let ptr: Json = root;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (isObject(ptr)) {
      const v: JsonObject = ptr;
      const child = v[part];
      if (Array.isArray(child) && i === parts.length - 2) {
        let idx = 0;
        if (method !== 'POST') {
          const idxStr = parts[parts.length - 1] as string;
          const n = atoi(idxStr);
          if (n === undefined) throw new Error(`[${path}] invalid array index '${idxStr}': strconv.Atoi: parsing "${idxStr}": invalid syntax`);
          if (n < 0 || n >= child.length) throw new Error(`[${path}] array index out of bounds: ${idxStr}`);
          idx = n;
        }
        switch (method) {
          case 'GET':
            return child[idx] ?? null;
          case 'POST':
            if (ellipses) {
              if (!Array.isArray(val)) throw new Error('final element is not an array');
              child.push(...val);
            } else child.push(val ?? null);
            return undefined;
          case 'PUT':
            child.splice(idx, 0, val ?? null);
            return undefined;
          case 'PATCH':
            child[idx] = val ?? null;
            return undefined;
          case 'DELETE':
            child.splice(idx, 1);
            return undefined;
          default:
            throw new Error(`unrecognized method ${method}`);
        }
      }
      if (i === parts.length - 1) {
        switch (method) {
          case 'GET':
            return v[part] ?? null;
          case 'POST': {
            const existing = v[part];
            if (Array.isArray(existing)) {
              if (ellipses) {
                if (!Array.isArray(val)) throw new Error('final element is not an array');
                existing.push(...val);
              } else existing.push(val ?? null);
            } else v[part] = val ?? null;
            return undefined;
          }
          case 'PUT':
            if (part in v) throw new Error(`[${path}] key already exists: ${part}`);
            v[part] = val ?? null;
            return undefined;
          case 'PATCH':
            if (!(part in v)) throw new Error(`[${path}] key does not exist: ${part}`);
            v[part] = val ?? null;
            return undefined;
          case 'DELETE':
            delete v[part];
            return undefined;
          default:
            throw new Error(`unrecognized method ${method}`);
        }
      }
      // A PUT may create the objects on its way, as Caddy does.
      if ((v[part] === undefined || v[part] === null) && method === 'PUT') v[part] = {};
      ptr = v[part] ?? null;
    } else if (Array.isArray(ptr)) {
      const at = parts.slice(0, i + 1).join('/');
      const n = atoi(part);
      if (n === undefined) throw new Error(`[/${at}] invalid array index '${part}': strconv.Atoi: parsing "${part}": invalid syntax`);
      if (n < 0 || n >= ptr.length) throw new Error(`[/${at}] array index out of bounds: ${part}`);
      ptr = ptr[n] ?? null;
    } else {
      throw new Error(`invalid traversal path at: ${parts.slice(0, i + 1).join('/')}`);
    }
  }
  return undefined;
}

/** indexConfigObjects: every object carrying "@id" maps the id to its full path; a later duplicate wins. */
function indexIds(ptr: Json, configPath: string, index: Map<string, string>): void {
  if (Array.isArray(ptr)) {
    ptr.forEach((v, i) => indexIds(v, `${configPath}/${i}`, index));
  } else if (isObject(ptr)) {
    for (const [k, v] of Object.entries(ptr)) {
      if (k === '@id') {
        if (typeof v === 'string') index.set(v, configPath);
        else if (typeof v === 'number') index.set(String(v), configPath);
        else throw new Error(`${configPath}: @id field must be a string or number`);
        continue;
      }
      indexIds(v, `${configPath}/${k}`, index);
    }
  }
}

export type ConfigValidator = (config: Json) => void;

export class CaddyConfig {
  private root: JsonObject;
  private index = new Map<string, string>();

  constructor(
    initial: JsonObject,
    private readonly validate: ConfigValidator,
  ) {
    validate(initial);
    this.root = { config: clone(initial) };
    indexIds(this.root.config ?? null, '/config', this.index);
  }

  /** The running config (a live reference: tests may read it; change it through the API). */
  get current(): Json {
    return this.root.config ?? null;
  }

  read(path: string): Json {
    try {
      return access(this.root, 'GET', path, undefined) ?? null;
    } catch (e) {
      throw new AdminError(400, (e as Error).message);
    }
  }

  /** Apply a change to a copy; only a copy that loads replaces the running config. */
  change(method: string, path: string, body: Json | undefined): void {
    const next = clone(this.root);
    const index = new Map<string, string>();
    try {
      access(next, method, path, body);
      indexIds(next.config ?? null, '/config', index);
    } catch (e) {
      throw new AdminError(500, (e as Error).message);
    }
    try {
      this.validate(next.config ?? null);
    } catch (e) {
      throw new AdminError(500, `loading new config: ${(e as Error).message}`);
    }
    this.root = next;
    this.index = index;
  }

  /** POST /load: replace the whole config. */
  load(config: Json): void {
    try {
      this.validate(config);
    } catch (e) {
      throw new AdminError(400, `loading config: ${(e as Error).message}`);
    }
    const index = new Map<string, string>();
    indexIds(config, '/config', index);
    this.root = { config: clone(config) };
    this.index = index;
  }

  /** /id/<id>/rest... -> /config/...; unknown ids are a 404 as in handleConfigID. */
  expandId(idPath: string): string {
    const parts = idPath.split('/');
    const id = parts[2];
    if (parts.length < 3 || !id) throw new AdminError(400, 'request path is missing object ID');
    const expanded = this.index.get(id);
    if (expanded === undefined) throw new AdminError(404, `unknown object ID '${id}'`);
    return [expanded, ...parts.slice(3)].join('/');
  }
}
