import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { generatedDocument } from '../apps/api/openapi.js';

// Regenerates openapi.yaml, the committed contract, from the route contracts in code.
writeFileSync(new URL('../openapi.yaml', import.meta.url), stringify(generatedDocument(), { aliasDuplicateObjects: false }));
process.stdout.write('openapi.yaml written\n');
