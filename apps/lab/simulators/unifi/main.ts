// Run the UniFi simulator on its own: `npx tsx apps/lab/simulators/unifi/main.ts [port]`.
import { serveApp } from '../serve.js';
import { createUnifiSimulator } from './index.js';

const sim = createUnifiSimulator({ apiKey: process.env.UNIFI_SIM_API_KEY });
const server = await serveApp(sim.app, Number(process.argv[2] ?? 0));
console.log(JSON.stringify({ url: server.url, site: 'default', ssids: [...sim.state.sites.get('default')!.wlans.map((w) => w.name)] }));
