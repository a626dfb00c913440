import { startKea, type RunningKea } from '../../apps/lab/servers/kea.js';

/**
 * Two real Kea 2.2 servers made a High Availability pair (hot-standby, the lab's own hooks
 * directory), as a site runs them: each loads lease_cmds and the HA hook naming both peers by
 * their control agents. HA shares leases between them, never the configuration.
 */
export interface KeaHaPair {
  primary: RunningKea;
  standby: RunningKea;
  stop(): Promise<void>;
}

const HOOKS = '/usr/lib/x86_64-linux-gnu/kea/hooks';

export async function startKeaHaPair(subnet: { id: number; subnet: string }, auth: { authUser: string; authPassword: string }): Promise<KeaHaPair> {
  const [primary, standby] = await Promise.all([startKea({ subnets: [subnet], ...auth }), startKea({ subnets: [subnet], ...auth })]);
  const authorization = `Basic ${Buffer.from(`${auth.authUser}:${auth.authPassword}`).toString('base64')}`;
  const command = async (url: string, name: string, args?: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ command: name, service: ['dhcp4'], ...(args ? { arguments: args } : {}) }),
    });
    return ((await res.json()) as Array<{ result: number; text?: string; arguments?: { Dhcp4: Record<string, unknown> } }>)[0]!;
  };
  const peers = [
    { name: 'kea-a', url: primary.controlUrl, role: 'primary', 'basic-auth-user': auth.authUser, 'basic-auth-password': auth.authPassword },
    { name: 'kea-b', url: standby.controlUrl, role: 'standby', 'basic-auth-user': auth.authUser, 'basic-auth-password': auth.authPassword },
  ];
  for (const [kea, me] of [
    [primary, 'kea-a'],
    [standby, 'kea-b'],
  ] as const) {
    const dhcp4 = (await command(kea.controlUrl, 'config-get')).arguments!.Dhcp4;
    dhcp4['hooks-libraries'] = [
      { library: `${HOOKS}/libdhcp_lease_cmds.so` },
      { library: `${HOOKS}/libdhcp_ha.so`, parameters: { 'high-availability': [{ 'this-server-name': me, mode: 'hot-standby', peers }] } },
    ];
    for (const name of ['config-set', 'config-write']) {
      const answer = await command(kea.controlUrl, name, name === 'config-set' ? { Dhcp4: dhcp4 } : undefined);
      if (answer.result !== 0) throw new Error(`startKeaHaPair: ${name} on ${me}: ${answer.text ?? answer.result}`);
    }
  }
  return { primary, standby, stop: async () => void (await Promise.all([primary.stop(), standby.stop()])) };
}
