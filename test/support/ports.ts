export { freePort } from '../../apps/lab/free-port.js';
