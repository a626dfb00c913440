import { describe, expect, it } from 'vitest';
import { allOneAt, tenantObjects } from '../support/backend-objects.js';
import { canConnect } from '../support/mosquitto.js';
import { siteForFile } from '../support/site.js';
import { createTenant } from '../support/lab-calls.js';

/**
 * Registry loss under a tenant that holds a device with a fixed address, a Wi-Fi key and a broker
 * account (spec: Authentication rule 5; Wi-Fi keys: `psk` restores a key the service lost; Broker
 * accounts: `password` restores): after the tenant restores itself with its token, each object is
 * issued again with the secret the tenant kept, and the backends end with one of each, working
 * with the kept secrets; nothing is duplicated.
 */
const site = siteForFile();
const MAC = '02:00:00:00:5e:01';

describe('the registry lost under a tenant with a device address, a Wi-Fi key and a broker account', () => {
  it('the tenant restores them with the secrets it kept; one of each object remains, and they work', async () => {
    const t = await createTenant(site(), 'rlo');
    const token = t.api_token as string;
    const as = (method: string, path: string, body?: unknown) => site().call(method, `/v1/tenants/rlo${path}`, { body, token });
    const key = await as('POST', '/wifi-keys', { name: 'k', trust_class: 'sensor' });
    expect(key.status, key.text).toBe(201);
    const account = await as('POST', '/broker-accounts', { name: 'app', publish: ['data/#'], subscribe: [] });
    expect(account.status, account.text).toBe(201);
    expect((await as('POST', '/devices', { name: 'd1', trust_class: 'sensor', mac: MAC })).status).toBe(201);
    const address = await as('POST', '/devices/d1/address', {});
    expect(address.status, address.text).toBe(201);
    const web = await as('POST', '/workloads', { name: 'web' });
    expect(web.status, web.text).toBe(201);
    expect(await tenantObjects(site(), 'rlo', t.index)).toEqual({ ...allOneAt(site()), reservations: 1, brokerAccounts: 1 });

    // The loss: every registry table emptied under the running API and worker.
    const tables = await site().registry.sql<{ tablename: string }[]>`select tablename from pg_tables where schemaname = 'public'`;
    await site().registry.sql.unsafe(`truncate ${tables.map((x) => `"${x.tablename}"`).join(', ')} cascade`);

    const restored = await site().call('POST', '/v1/tenants', {
      body: { name: 'rlo', tsig_secret: t.dns.tsig_secret, state_secret: t.state.secret_key, api_token: token },
    });
    expect(restored.status, restored.text).toBe(201);
    expect(restored.body).toMatchObject({ outcome: 'restored', index: t.index });
    // What the registry cannot rebuild is reported for the tenant to restore, not adopted by guess:
    // the broker client (only the tenant holds its password) and the workload's VM.
    expect(restored.body.objects).toEqual(
      expect.arrayContaining([
        { area: 'broker', object: 'mqtt client rlo-app', result: 'unknown' },
        { area: 'hypervisor', object: `vm ${web.body.vmid} (rlo-web)`, result: 'unknown' },
      ]),
    );
    expect(restored.body.objects).toHaveLength(2);
    expect(JSON.stringify(restored.body.objects)).not.toContain(account.body.password);
    // The restore's run read the areas that can hold unknown objects, not the Wi-Fi controller
    // (a key entry names no key, so there is nothing of the tenant's it could report).
    const history = await site().client.workflow.getHandle('tenant-create/rlo').fetchHistory();
    const ran = (history.events ?? []).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(ran).toEqual(expect.arrayContaining(['hypervisor.plan-workloads', 'broker.plan-accounts']));
    expect(ran).not.toContain('wifi.plan-keys');

    const key2 = await as('POST', '/wifi-keys', { name: 'k', trust_class: 'sensor', psk: key.body.psk });
    expect(key2.status, key2.text).toBe(201);
    expect(
      site()
        .backends.unifi!.wlan('lab-devices')!
        .private_preshared_keys.filter((e) => e.password === key.body.psk),
    ).toHaveLength(1);

    const account2 = await as('POST', '/broker-accounts', { name: 'app', publish: ['data/#'], subscribe: [], password: account.body.password });
    expect(account2.status, account2.text).toBe(201);
    expect(await canConnect(site().backends.mosquitto!.url, { username: 'rlo-app', password: account.body.password })).toBe(true);

    expect((await as('POST', '/devices', { name: 'd1', trust_class: 'sensor', mac: MAC })).status).toBe(201);
    const address2 = await as('POST', '/devices/d1/address', { address: address.body.address });
    expect(address2.status, address2.text).toBe(201);
    expect(address2.body.address).toBe(address.body.address);

    expect(await tenantObjects(site(), 'rlo', t.index)).toEqual({ ...allOneAt(site()), reservations: 1, brokerAccounts: 1 });
  });
});
