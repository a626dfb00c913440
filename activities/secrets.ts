import { randomBytes, randomInt } from 'node:crypto';

/** Secrets are generated here, in activities, never in workflow code (design §4). */
const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export function randomText(length: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export const newTsigSecret = () => randomBytes(32).toString('base64');
export const newStateSecret = () => randomText(40);
export const newLogToken = () => randomBytes(32).toString('base64url');
// Grafana's strong password policy needs all four character classes (backends/grafana/password.ts).
export { newDashboardPassword } from '../backends/grafana/password.js';
