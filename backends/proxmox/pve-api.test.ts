import { describe, it, expect } from 'vitest';
import { parseUpid, pveUrlEncode } from './pve-api.js';

describe('parseUpid', () => {
  const rows = [
    {
      reason: 'an API token task',
      upid: 'UPID:pve1:00002F12:000F4278:6B023319:qmclone:9000:root@pam!prov:',
      want: { node: 'pve1', pid: 0x2f12, pstart: 0xf4278, starttime: 0x6b023319, type: 'qmclone', id: '9000', user: 'root@pam!prov' },
    },
    {
      reason: 'a task without an id (SDN apply)',
      upid: 'UPID:node-a:0001E240:0A1B2C3D:65A1B2C3:reloadnetworkall::svc@pve!t1:',
      want: { node: 'node-a', pid: 0x1e240, pstart: 0xa1b2c3d, starttime: 0x65a1b2c3, type: 'reloadnetworkall', id: '', user: 'svc@pve!t1' },
    },
  ];
  for (const row of rows) it(row.reason, () => expect(parseUpid(row.upid)).toEqual(row.want));
  for (const bad of ['', 'UPID:pve1:zz:1:2:qmstart:1:root@pam:', 'UPID:pve1:00002F12:000F4278:6B023319:qmclone:9000:root@pam']) {
    it(`refuses ${JSON.stringify(bad)}`, () => expect(parseUpid(bad)).toBeUndefined());
  }
});

describe('pveUrlEncode matches uri_escape', () => {
  const rows = [
    { s: 'a b', want: 'a%20b' },
    { s: "x!'()*y", want: 'x%21%27%28%29%2Ay' },
    { s: 'A+/=\n', want: 'A%2B%2F%3D%0A' },
    { s: 'safe-._~', want: 'safe-._~' },
  ];
  for (const row of rows) it(JSON.stringify(row.s), () => expect(pveUrlEncode(row.s)).toBe(row.want));
});
