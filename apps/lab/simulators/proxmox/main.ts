// Run the Proxmox VE simulator on its own: `npx tsx apps/lab/simulators/proxmox/main.ts [port]`.
// The token comes from PVE_SIM_TOKEN_ID / PVE_SIM_TOKEN_SECRET; a generated secret is printed once.
import { randomUUID } from 'node:crypto';
import { serveApp } from '../serve.js';
import { createProxmoxSimulator } from './index.js';

const tokenId = process.env.PVE_SIM_TOKEN_ID ?? 'root@pam!provisioner';
const given = process.env.PVE_SIM_TOKEN_SECRET;
const tokenSecret = given ?? randomUUID();
const sim = createProxmoxSimulator({ tokenId, tokenSecret });
const server = await serveApp(sim.app, Number(process.argv[2] ?? 0));
console.log(JSON.stringify({ url: `${server.url}/api2/json`, node: sim.state.node, storage: sim.state.storage, tokenId, ...(given ? {} : { tokenSecret }) }));
