import { serveApp } from '../serve.js';
import { createMinioSimulator } from './index.js';

// Stand-alone lab run: `npx tsx apps/lab/simulators/minio/main.ts [port]`, root minioadmin/minioadmin.
const port = Number(process.argv[2] ?? 0);
const sim = createMinioSimulator({ buckets: ['tenants'] });
const server = await serveApp(sim.app, port);
console.log(`MinIO simulator on ${server.url} (root ${sim.state.root.accessKey}, bucket tenants)`);
