import { writeFileSync } from 'node:fs';
import { tenantStepRows, tenantStepTableSource } from '../activities/tenant-step-rows.js';

// Regenerates core/tenant-steps.generated.ts from the areas' step modules (activities/backend-areas.ts).
writeFileSync(new URL('../core/tenant-steps.generated.ts', import.meta.url), tenantStepTableSource(tenantStepRows()));
process.stdout.write('core/tenant-steps.generated.ts written\n');
