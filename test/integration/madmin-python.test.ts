import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addUserBody } from '../../backends/minio/minio.js';
import { DerivedKeys, MADMIN_ARGON2ID_AES_GCM, SIO_BUF_SIZE, decryptData, encryptData } from '../../backends/minio/madmin-crypto.js';

/**
 * Issue 45 item 4: the admin bodies the MinIO adapter sends are checked against an implementation
 * of madmin's EncryptData other than the adapter's own: MinIO's Python SDK (`minio.crypto`, from
 * PyPI into .tools/venv by scripts/setup.sh). The lab's MinIO simulator decrypts with the
 * adapter's code, so without this a wrong body would pass every other test.
 */
const python = fileURLToPath(new URL('../../.tools/venv/bin/python', import.meta.url));
const script = fileURLToPath(new URL('../support/madmin_python.py', import.meta.url));

function minioPy(op: 'decrypt' | 'encrypt', password: string, data: Uint8Array): Promise<{ hex?: string; error?: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(python, [script], { timeout: 30_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as { hex?: string; error?: string }),
    );
    child.stdin!.end(JSON.stringify({ op, password, hex: Buffer.from(data).toString('hex') }));
  });
}

const ADMIN_SECRET = 'minio-root-secret-Zq8!"\\ü';

describe("madmin bodies against MinIO's Python SDK", () => {
  it("decrypts the adapter's add-user body to the JSON MinIO reads", async () => {
    const body = await addUserBody(ADMIN_SECRET, 'tenant-secret-0123456789');
    expect(body[32]).toBe(MADMIN_ARGON2ID_AES_GCM);
    const r = await minioPy('decrypt', ADMIN_SECRET, body);
    expect(r.error).toBeUndefined();
    expect(JSON.parse(Buffer.from(r.hex!, 'hex').toString('utf8'))).toEqual({ secretKey: 'tenant-secret-0123456789', status: 'enabled' });
  });

  it('decrypts each of several bodies sealed under one kept key (one salt, a nonce each)', async () => {
    const keys = new DerivedKeys();
    const bodies = [await addUserBody(ADMIN_SECRET, 'tenant-secret-first-0000', keys), await addUserBody(ADMIN_SECRET, 'tenant-secret-second-111', keys)];
    expect(bodies[0]!.subarray(0, 32)).toEqual(bodies[1]!.subarray(0, 32));
    expect(bodies[0]!.subarray(33, 41)).not.toEqual(bodies[1]!.subarray(33, 41));
    const plain = await Promise.all(bodies.map(async (b) => JSON.parse(Buffer.from((await minioPy('decrypt', ADMIN_SECRET, b)).hex!, 'hex').toString('utf8'))));
    expect(plain.map((p) => p.secretKey)).toEqual(['tenant-secret-first-0000', 'tenant-secret-second-111']);
  });

  it('refuses the body under another password: the check can fail', async () => {
    const r = await minioPy('decrypt', 'not-the-root-secret', await addUserBody(ADMIN_SECRET, 'tenant-secret-0123456789'));
    expect(r.error).toMatch(/MAC check failed/);
  });

  // Fragment edges: empty, one short, exactly one fragment, one byte over, several.
  for (const size of [0, 1, SIO_BUF_SIZE, SIO_BUF_SIZE + 1, 3 * SIO_BUF_SIZE + 77]) {
    it(`agrees both ways on a ${size}-byte plaintext`, async () => {
      const plain = Buffer.alloc(size, 0).map((_, i) => (i * 31 + 7) & 0xff);
      const ours = await encryptData(ADMIN_SECRET, plain);
      const theirsOfOurs = await minioPy('decrypt', ADMIN_SECRET, ours);
      expect(theirsOfOurs.error).toBeUndefined();
      expect(Buffer.from(theirsOfOurs.hex!, 'hex').equals(plain)).toBe(true);
      // Its encrypt writes no fragment at all for nothing (Go's sio writes an empty final one): the
      // way back is checked where there is a fragment.
      if (size === 0) return;
      const theirs = await minioPy('encrypt', ADMIN_SECRET, plain);
      expect((await decryptData(ADMIN_SECRET, Buffer.from(theirs.hex!, 'hex'))).equals(plain)).toBe(true);
    });
  }

  it('does not know the PBKDF2 form (id 0x02): why the adapter no longer sends it', async () => {
    const r = await minioPy('decrypt', ADMIN_SECRET, await encryptData(ADMIN_SECRET, Buffer.from('{}'), { kdf: 'pbkdf2' }));
    expect(r.error).toMatch(/Unknown AEAD ID 2/);
  });
});
