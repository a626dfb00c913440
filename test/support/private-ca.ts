import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private CA as a real site has one (Proxmox's cluster CA, a UniFi console's own), made with
 * openssl: its root (`caPem`, in `caFile` for SITE_*_CA_FILE) and a server certificate it signed
 * for 127.0.0.1 and localhost. A second, unrelated CA (`otherCaFile`) is the wrong trust.
 */
export interface PrivateCa {
  dir: string;
  caPem: string;
  caFile: string;
  otherCaFile: string;
  server: { cert: string; key: string };
  remove(): void;
}

/**
 * A self-signed certificate made with openssl (`<name>.pem`, `<name>.key` in `dir`), for a subject
 * and the extensions given: a CA's root, or a server's own certificate as a device ships it.
 */
export function selfSigned(dir: string, name: string, subject: string, extensions: string[]): { cert: string; key: string } {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.pem`);
  const addext = extensions.flatMap((e) => ['-addext', e]);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', subject, ...addext], {
    stdio: 'ignore',
  });
  return { cert, key };
}

const makeRoot = (dir: string, name: string) =>
  selfSigned(dir, name, `/CN=${name}`, ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign']);

export function createPrivateCa(): PrivateCa {
  const dir = mkdtempSync(join(tmpdir(), 'private-ca-'));
  const root = makeRoot(dir, 'Lab site CA');
  const other = makeRoot(dir, 'Unrelated CA');
  const key = join(dir, 'server.key');
  const csr = join(dir, 'server.csr');
  const cert = join(dir, 'server.pem');
  const ext = join(dir, 'server.ext');
  writeFileSync(ext, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n');
  execFileSync('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
  execFileSync('openssl', ['x509', '-req', '-in', csr, '-CA', root.cert, '-CAkey', root.key, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', ext], {
    stdio: 'ignore',
  });
  return {
    dir,
    caPem: readFileSync(root.cert, 'utf8'),
    caFile: root.cert,
    otherCaFile: other.cert,
    server: { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
