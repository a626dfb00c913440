import { writeFileSync } from 'node:fs';
import { CLIENT_SCHEMA, clientSchema } from './client-schema.js';

// Regenerates the typed client's types from openapi.yaml (run after `npm run openapi:write`).
writeFileSync(CLIENT_SCHEMA, await clientSchema());
process.stdout.write('client/schema.ts written\n');
