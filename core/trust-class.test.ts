import { describe, expect, it } from 'vitest';
import { isServed, rangeOf, servedClasses, unservedReason, wifiOf } from './trust-class.js';
import { parseIPv4 } from './address-ranges.js';

const classes = {
  sensor: { ssid: 'lab-devices', vlan: 'tenant-devices', range: '10.200.0.64-10.200.0.127' },
  camera: { ssid: 'lab-devices', vlan: 'tenant-devices' },
  wired: { range: '10.200.0.192-10.200.0.199' },
  half: { ssid: 'lab-devices' },
  broken: { range: '10.200.0.99-10.200.0.10' },
};

describe('trust classes', () => {
  it('lists the served classes sorted, so the 400 text is stable', () => {
    expect(servedClasses(classes)).toEqual(['broken', 'camera', 'half', 'sensor', 'wired']);
  });

  const rows: Array<{ cls: string; served: boolean; wifi: boolean; range: boolean; reason: string }> = [
    { cls: 'sensor', served: true, wifi: true, range: true, reason: 'a class with Wi-Fi and a range' },
    { cls: 'camera', served: true, wifi: true, range: false, reason: 'Wi-Fi only: keys yes, fixed addresses no' },
    { cls: 'wired', served: true, wifi: false, range: true, reason: 'a range only: fixed addresses yes, keys no' },
    { cls: 'half', served: true, wifi: false, range: false, reason: 'an SSID without a VLAN gives no Wi-Fi' },
    { cls: 'broken', served: true, wifi: false, range: false, reason: 'a reversed range is no range' },
    { cls: 'printer', served: false, wifi: false, range: false, reason: 'a class the site does not serve' },
    { cls: 'constructor', served: false, wifi: false, range: false, reason: 'object prototype names are not classes' },
  ];
  for (const row of rows) {
    it(`${row.reason}: ${row.cls}`, () => {
      expect(isServed(classes, row.cls)).toBe(row.served);
      expect(wifiOf(classes, row.cls) !== undefined).toBe(row.wifi);
      expect(rangeOf(classes, row.cls) !== undefined).toBe(row.range);
    });
  }

  it('answers the class network and range', () => {
    expect(wifiOf(classes, 'sensor')).toEqual({ ssid: 'lab-devices', vlan: 'tenant-devices' });
    expect(rangeOf(classes, 'sensor')).toEqual({ first: parseIPv4('10.200.0.64'), last: parseIPv4('10.200.0.127') });
  });

  it('names the served classes in the refusal of an unserved one', () => {
    expect(unservedReason({ sensor: {}, camera: {} }, 'printer')).toBe('trust_class: not served at this site; it serves: camera, sensor');
    expect(unservedReason({}, 'printer')).toBe('trust_class: not served at this site; it serves no trust classes');
  });
});
