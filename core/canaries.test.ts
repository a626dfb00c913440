import { describe, expect, it } from 'vitest';
import { canaryRecordAddress, canaryWifiClasses } from './canaries.js';

describe("the canaries' Wi-Fi classes", () => {
  const rows: Array<{ why: string; classes: Record<string, { ssid?: string; vlan?: string }>; want: ReturnType<typeof canaryWifiClasses> }> = [
    { why: 'no class with a Wi-Fi network: no keys, wifi skipped', classes: { wired: {} }, want: undefined },
    {
      why: 'classes sharing one network (the lab): both in the first by name',
      classes: { sensor: { ssid: 'd', vlan: 'devices' }, camera: { ssid: 'd', vlan: 'devices' } },
      want: { canarya: 'camera', canaryb: 'camera' },
    },
    {
      why: "another network: canaryb there, so a key mapped onto the other's network shows",
      classes: { camera: { ssid: 'c', vlan: 'cams' }, printer: { ssid: 'd', vlan: 'cams' }, sensor: { ssid: 'd', vlan: 'devices' }, wired: {} },
      want: { canarya: 'camera', canaryb: 'sensor' },
    },
  ];
  for (const row of rows) it(row.why, () => expect(canaryWifiClasses(row.classes)).toEqual(row.want));
});

it("a canary's record points at .9 of its own subnet, below the workloads' .10", () => {
  expect(canaryRecordAddress('10.128.7.0/24')).toBe('10.128.7.9');
});
