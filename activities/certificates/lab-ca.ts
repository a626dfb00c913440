/**
 * A throwaway CA for tests and the lab: a root and, optionally, intermediates below it. The last
 * certificate made is the issuing CA; its key, its certificate and the intermediates above it
 * are exactly what createIssuer() takes, and the root is what clients trust.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { crypto, keyIdentifier, nameWithCommonName, randomSerial, signerOf, toPem, x509 } from '../../core/x509.js';

export interface LabCaOptions {
  keyType?: 'rsa' | 'ec';
  /** Intermediates between the root and the issuing CA; 0: the root issues. */
  intermediates?: number;
  commonName?: string;
  days?: number;
  now?: Date;
}

export interface LabCa {
  rootCertPem: string;
  rootKeyPem: string;
  /** For createIssuer(): the issuing CA, its key, and the intermediates above it (nearest first). */
  caCertPem: string;
  caKeyPem: string;
  chainPem: string[];
}

export async function createLabCa(opts: LabCaOptions = {}): Promise<LabCa> {
  const keyType = opts.keyType ?? 'rsa';
  const base = opts.commonName ?? 'Lab tenant service CA';
  const notBefore = new Date(Math.floor(((opts.now ?? new Date()).getTime() - 60_000) / 1000) * 1000);
  const notAfter = new Date(notBefore.getTime() + (opts.days ?? 3650) * 24 * 60 * 60 * 1000);
  const levels = opts.intermediates ?? 0;

  const newKey = (): { privateKey: KeyObject; publicKey: KeyObject } =>
    keyType === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

  const made: Array<{ certDer: ArrayBuffer; key: KeyObject; subject: x509.Name; keyId: string }> = [];
  for (let level = 0; level <= levels; level++) {
    const pair = newKey();
    const spki = pair.publicKey.export({ format: 'der', type: 'spki' });
    const subject = nameWithCommonName(level === 0 ? `${base} Root` : `${base} Intermediate ${level}`);
    const keyId = await keyIdentifier(spki);
    const parent = made[level - 1];
    const usages = x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign;
    const cert = await x509.X509CertificateGenerator.create(
      {
        serialNumber: randomSerial(),
        issuer: parent?.subject ?? subject,
        subject,
        notBefore,
        notAfter,
        publicKey: spki,
        ...signerOf(parent?.key ?? pair.privateKey),
        extensions: [
          // Each CA may sign only the levels left below it.
          new x509.BasicConstraintsExtension(true, levels - level, true),
          new x509.KeyUsagesExtension(usages, true),
          new x509.SubjectKeyIdentifierExtension(keyId, false),
          ...(parent ? [new x509.AuthorityKeyIdentifierExtension(parent.keyId, false)] : []),
        ],
      },
      crypto,
    );
    made.push({ certDer: cert.rawData, key: pair.privateKey, subject, keyId });
  }

  const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();
  const root = made[0]!;
  const issuing = made[made.length - 1]!;
  return {
    rootCertPem: toPem(root.certDer),
    rootKeyPem: pem(root.key),
    caCertPem: toPem(issuing.certDer),
    caKeyPem: pem(issuing.key),
    chainPem: made
      .slice(1, -1)
      .reverse()
      .map((m) => toPem(m.certDer)),
  };
}
