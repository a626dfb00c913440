import { describe, it, expect } from 'vitest';
import { decodeOid, oid, readRoot, children, contentOf, time, unsignedInteger, smallInteger, tlv, DerError } from './der.js';
import { ext } from './x509.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('DER writing', () => {
  it.each([
    ['OID with multi-byte arcs (ecdsa-with-SHA256)', hex(oid('1.2.840.10045.4.3.2')), '06082a8648ce3d040302'],
    ['OID 2.5.29.17', hex(oid('2.5.29.17')), '0603551d11'],
    ['INTEGER with the sign bit set gets a leading zero', hex(unsignedInteger(Buffer.from([0x80, 0x01]))), '0203008001'],
    ['INTEGER drops redundant leading zeros', hex(unsignedInteger(Buffer.from([0, 0, 0x05]))), '020105'],
    ['small INTEGER 2 (version v3)', hex(smallInteger(2)), '020102'],
    ['UTCTime before 2050', hex(time(new Date('2027-11-22T00:09:06.789Z'))), '170d3237313132323030303930365a'],
    ['GeneralizedTime from 2050', hex(time(new Date('2050-01-01T00:00:00Z'))), '180f32303530303130313030303030305a'],
    ['long-form length', hex(tlv(0x04, Buffer.alloc(200))).slice(0, 6), '0481c8'],
    ['keyUsage digitalSignature: 7 unused bits', hex(ext.keyUsage(['digitalSignature']).value), '03020780'],
    ['keyUsage digitalSignature+keyEncipherment: 5 unused bits', hex(ext.keyUsage(['digitalSignature', 'keyEncipherment']).value), '030205a0'],
    ['keyUsage keyCertSign+cRLSign: 1 unused bit', hex(ext.keyUsage(['keyCertSign', 'cRLSign']).value), '03020106'],
    ['basicConstraints CA:FALSE is an empty SEQUENCE', hex(ext.basicConstraints(false).value), '3000'],
    ['basicConstraints CA:TRUE pathlen 0', hex(ext.basicConstraints(true, 0).value), '30060101ff020100'],
  ])('%s', (_reason, got, want) => {
    expect(got).toBe(want);
  });
});

describe('DER reading', () => {
  it('reads an OID back', () => {
    const der = oid('1.3.6.1.5.5.7.3.1');
    expect(decodeOid(contentOf(der, readRoot(der)))).toBe('1.3.6.1.5.5.7.3.1');
  });

  it('lists the children of a SEQUENCE as exact slices', () => {
    const der = Buffer.from('3006020101020102', 'hex');
    expect(children(der, readRoot(der)).map((t) => [t.start, t.end])).toEqual([
      [2, 5],
      [5, 8],
    ]);
  });

  it.each([
    ['trailing bytes', '020101ff'],
    ['indefinite length', '30800201010000'],
    ['length past the end', '02050101'],
    ['non-minimal long length', '04810101'],
    ['a child running past its parent', '3003020501'],
  ])('refuses %s', (_reason, h) => {
    const der = Buffer.from(h, 'hex');
    expect(() => {
      const r = readRoot(der);
      if (r.tag & 0x20) children(der, r);
    }).toThrow(DerError);
  });
});
