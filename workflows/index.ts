export { tenantCreate } from './tenant-create.js';
export { tenantDelete } from './tenant-delete.js';
export { tenantReconcile } from './tenant-reconcile.js';
export { reconcileSweep } from './reconcile-sweep.js';
