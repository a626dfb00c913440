import { describe, it, expect } from 'vitest';
import {
  DerivedKeys,
  MADMIN_ARGON2ID_AES_GCM,
  MADMIN_ARGON2ID_CHACHA20_POLY1305,
  decryptData,
  encryptData,
  isEncrypted,
  sioOpen,
  sioSeal,
} from './madmin-crypto.js';

// Ciphertexts produced by Go's madmin.EncryptData (madmin-go encrypt_test.go, decryptDataTests) with
// the plaintexts encryptDataTests lists for them: all zero bytes.
const madminVectors = [
  { password: '', size: 0, hex: '828aa81599df0651c0461adb82283e8b89956baee9f6e719947ef9cddc849028001dc9d3ac0938f66b07bacc9751437e1985f8a9763c240e81' },
  {
    password: '',
    size: 256,
    hex:
      '1793c71df6647860437134073c15688cbb15961dc0758c7ee1225e66e79c724c00d790dba9c671eae89da2c736d858286ac9bd027abacc6443' +
      '0375cd41b63b67c070c7fba475a8dd66ae65ba905176c48cbe6f734fc74df87343d8ccff54bada4aeb0a04bd021633ebe6c4768e23f5dea142' +
      '561d4fe3f90ed59d13dc5fb3a585dadec1742325291b9c81692bdd3420b2428127f8195e0ecd9a1c9237712ed67af7339fbbf7ff3ee1c516e1' +
      'f81e69d933e057b30997e7274a2c9698e07c39f0e8d6818858f34c8191871b5a52bea9061806bd029024bfc1d9c1f230904968d6c9e10fddcb' +
      'c006ba97356ff243570fd96df07dd6894e215a6b24c4ed730369519289ebd877aff6ccbd2265985e4ab1a2b7930bab9cfb767b97348a639ddf' +
      '8db81bf5151da7e8f3d9638a1b86eb1dd78cc6a526f10a414c78638f',
  },
  {
    password: 'xPl.8/rhR"Q_1xLt',
    size: 32,
    hex:
      'b5c016e93b84b473fc8a37af94936563630c36d6df1841d23a86ee51ca161f9e00ac19116b32f643ff6a56a212b265d8c56' +
      '195bb0d12ce199e13dfdc5272f80c1564da2c6fc2fa18da91d8062de02af5cdafea491c6f3cae1f',
  },
  {
    password: '7h5oU4$te{;K}fgqlI^]',
    size: 256,
    hex:
      'c58edf7cfd557b6b655de6f48b1a3049d8d049dadb3a7bfa9ac9ccbb5baf37ec00f83086a26f43b7d6bc9075ad0' +
      '38bf5741f118d502ebe94165e4072ba7f98535d6b1e3b6ae67a98115d146d9b4d90e4df4ae82df9cfa17ed7cd42' +
      '465181559f7ddf09c98beec521bb4478e0cb73c4e0827af8688ff4e7a07327a10d5a180035e6ddb16d974a85257' +
      '981cd9e0360a20f7b4d653190267dfb241148f018ae180568042e864b9e1b5bc05425a3abc2b0324f50c72d5679' +
      '8f924405dfc0f8523f4bb564ed65af8e1b1c82a7a0640552ecf81985d95d0993d99172592ddc1393dfa63e8f0b3' +
      'd744b2cc4b73384ca4693f0c1aec0e9b00e85f2937e891105d67da8f59c14ca96608e0425c42f9c1e7c2a8b3413' +
      'e1381784f9cfe01de7c47cea1f8d7a7d88f5d4aca783cf55332b47f957a6b9a65269d7eb606b877b',
  },
];

describe('madmin EncryptData / DecryptData against Go-produced ciphertexts', () => {
  for (const v of madminVectors) {
    it(`decrypts a ${v.size}-byte plaintext under password ${JSON.stringify(v.password)}`, async () => {
      const ct = Buffer.from(v.hex, 'hex');
      expect(isEncrypted(ct)).toBe(true);
      expect(await decryptData(v.password, ct)).toEqual(Buffer.alloc(v.size));
    });

    it(`re-encrypts it to the same bytes with the same salt and nonce (size ${v.size})`, async () => {
      const ct = Buffer.from(v.hex, 'hex');
      const again = await encryptData(v.password, Buffer.alloc(v.size), { salt: ct.subarray(0, 32), nonce: ct.subarray(33, 41) });
      expect(again.toString('hex')).toBe(v.hex);
    });
  }

  it('refuses a wrong password and a flipped byte', async () => {
    const ct = Buffer.from(madminVectors[2]!.hex, 'hex');
    await expect(decryptData('not the password', ct)).rejects.toThrow(/not authentic/);
    const tampered = Buffer.from(ct);
    tampered[tampered.length - 1]! ^= 1;
    await expect(decryptData(madminVectors[2]!.password, tampered)).rejects.toThrow(/not authentic/);
    await expect(decryptData('', ct.subarray(0, 20))).rejects.toThrow(/unexpected header/);
  });
});

// secure-io/sio-go test_vectors.json (AES-128-GCM entries; the stream layer is the same for AES-256).
const sioVectors = [
  { buf: 16, key: '00000000000000000000000000000000', nonce: '0000000000000000', ad: '', pt: '', ct: 'e0247a864e783cecb1f7996c13cd3f64' },
  { buf: 16, key: '10000000000000000000000000000000', nonce: '1000000000000000', ad: '00', pt: '00', ct: '61ed193d12a2adf6f1c41f31de4ead6c5c' },
  {
    buf: 16,
    key: '00000000000000000000000000000000',
    nonce: '0000000000000000',
    ad: '0000000000000000',
    pt: '0000000000000000',
    ct: '4661d681f92680d7a307c7a036700edde4697a1f3ba7e01b',
  },
  {
    buf: 16,
    key: '10000000000000000000000000000000',
    nonce: '0000000000000002',
    ad: '',
    pt: '0000000000000000000000000000000000',
    ct: '691deb7b9ccbee91f48d12c7ad5fe3cd4e1e5e7d394f06b91228ec9a5dd2456ac7de9502a0b4010fb1ee1db94e940458fb',
  },
  {
    buf: 16,
    key: '20000000000000000000000000000000',
    nonce: '2000000000000000',
    ad: '00',
    pt: '0000000000000000000000000000000000000000000000000000000000000000',
    ct: 'f58d8fef7ac7782a4361a79c07f5e6c4672d8a45e6cb9ef67cb7177897358deb8d338d313d44f78e0b68a3723d7ca0fe5f62aa8af0a72e508f5d5f8491ecedb2',
  },
  {
    buf: 17,
    key: '31dd758d120fd5d30063921a21f723be',
    nonce: 'd3794fe387018e32',
    ad: '1d838b6e861ea7576de110e08818de82a27337a99db7b95aa95c3347971ad4cfa0ef0960d6645f5a64f88c7d',
    pt: 'd0ae0d85e93ed6be853ded2031643116a03215b4fda224d2986d7233039aa47e91b686f4',
    ct: 'a6fe911b94e0b25a25bf6da71f28ad6a6b6920be01589e9194226f77c164606545d5cbdb76c99415b468c54517f5a8bc8dc8ac13b1b4285fe36f37f7884d5e4bfb32ecef56b4026bf02bfb1d4fce222e01ef9db9',
  },
];

describe('sio stream against sio-go vectors', () => {
  it.each(sioVectors.map((v, i) => [i, v] as const))('vector %i seals and opens', (_i, v) => {
    const h = (s: string) => Buffer.from(s, 'hex');
    expect(sioSeal('aes-128-gcm', h(v.key), h(v.nonce), h(v.pt), h(v.ad), v.buf).toString('hex')).toBe(v.ct);
    expect(sioOpen('aes-128-gcm', h(v.key), h(v.nonce), h(v.ct), h(v.ad), v.buf).toString('hex')).toBe(v.pt);
  });
});

describe('round trips', () => {
  it.each([
    ['a JSON body', Buffer.from('{"secretKey":"s3cr3t-value","status":"enabled"}')],
    ['exactly one 16 KiB fragment', Buffer.alloc(16 * 1024, 7)],
    ['three fragments and a bit', Buffer.alloc(3 * 16 * 1024 + 5, 9)],
  ])('%s survives AES-GCM', async (_what, data) => {
    const ct = await encryptData('root-secret', data);
    expect(ct[32]).toBe(MADMIN_ARGON2ID_AES_GCM);
    expect(ct.length).toBe(41 + data.length + 16 * Math.max(1, Math.ceil(data.length / (16 * 1024))));
    expect(await decryptData('root-secret', ct)).toEqual(data);
  });

  it('survives ChaCha20-Poly1305 and marks it with id 1', async () => {
    const ct = await encryptData('root-secret', Buffer.from('hello'), { algorithm: 'chacha20-poly1305' });
    expect(ct[32]).toBe(MADMIN_ARGON2ID_CHACHA20_POLY1305);
    expect((await decryptData('root-secret', ct)).toString()).toBe('hello');
  });

  it('writes the PBKDF2 (FIPS) form with id 2 when asked, which decrypts like the default', async () => {
    const ct = await encryptData('root-secret', Buffer.from('hello'), { kdf: 'pbkdf2' });
    expect(ct[32]).toBe(2);
    expect((await decryptData('root-secret', ct)).toString()).toBe('hello');
    await expect(decryptData('wrong-secret', ct)).rejects.toThrow();
  });

  it('uses a fresh salt and nonce each time', async () => {
    const a = await encryptData('p', Buffer.from('x'));
    const b = await encryptData('p', Buffer.from('x'));
    expect(a.subarray(0, 41).equals(b.subarray(0, 41))).toBe(false);
  });

  it.each([
    [Buffer.alloc(32), false],
    [Buffer.concat([Buffer.alloc(32), Buffer.from([3]), Buffer.alloc(30)]), false],
    [Buffer.concat([Buffer.alloc(32), Buffer.from([2]), Buffer.alloc(30)]), true],
  ])('isEncrypted(%#) = %s', (data, expected) => expect(isEncrypted(data)).toBe(expected));
});

describe('a kept Argon2id key (DerivedKeys)', () => {
  const saltOf = async (keys: DerivedKeys, password: string) => {
    const body = await encryptData(password, Buffer.from('x'), { derived: await keys.of(password) });
    expect((await decryptData(password, body)).toString()).toBe('x');
    return body.subarray(0, 32).toString('hex');
  };
  it('seals bodies any receiver decrypts, one derivation for many, until its uses, its age or the password change', async () => {
    let now = 0;
    const keys = new DerivedKeys(3, 1_000, () => now);
    const first = await saltOf(keys, 'pw-one');
    expect(await saltOf(keys, 'pw-one')).toBe(first);
    expect(await saltOf(keys, 'pw-one')).toBe(first);
    const fourth = await saltOf(keys, 'pw-one');
    expect(fourth, 'after three uses a new key').not.toBe(first);
    now += 1_000;
    const aged = await saltOf(keys, 'pw-one');
    expect(aged, 'after its age a new key').not.toBe(fourth);
    expect(await saltOf(keys, 'pw-two'), 'another password, another key').not.toBe(aged);
  });
  it('callers at once share one derivation', async () => {
    const keys = new DerivedKeys();
    const got = await Promise.all(Array.from({ length: 5 }, () => keys.of('pw')));
    expect(new Set(got.map((k) => k.salt.toString('hex'))).size).toBe(1);
  });
});
