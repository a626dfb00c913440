import { createHash } from 'node:crypto';
import { argon2idTurn, timedArgon2idKey, type Argon2idKeyOf } from '../../../../backends/minio/madmin-crypto.js';

/** Salts remembered per simulator: a sender keeps one salt for many bodies (the adapter's `DerivedKeys`). */
const REMEMBERED = 32;

/**
 * The key of an admin body's salt, as MinIO reads it: MinIO derives it for every body (Argon2id,
 * 64 MiB, 60-140 ms of a core, one derivation at a time). The simulator derives a salt's key
 * once, and for every later body under that salt and password takes the derivation's turn for as
 * long as that derivation took: a caller meets MinIO's latency and its queue of derivations, while
 * the lab's two cores are spared work a real MinIO does on a machine of its own (a fill's
 * simulators spent ~117 ms of CPU a create on it). A wrong password misses the memory, is derived,
 * and fails to open the body as before.
 */
export function rememberingSaltKeys(): Argon2idKeyOf {
  const known = new Map<string, { key: Buffer; ms: number }>();
  return async (password, salt) => {
    // Hashed: the memory holds no password, only what a derivation already made of it.
    const id = createHash('sha256').update(password, 'utf8').update('\0').update(salt).digest('hex');
    const hit = known.get(id);
    if (hit) {
      await argon2idTurn(hit.ms);
      return hit.key;
    }
    const { key, ms } = await timedArgon2idKey(password, salt);
    known.set(id, { key, ms });
    if (known.size > REMEMBERED) known.delete(known.keys().next().value!);
    return key;
  };
}
