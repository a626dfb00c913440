import { randomBytes } from 'node:crypto';

/**
 * Every core site setting loadConfig requires once SITE_DOMAIN is set, each backend at an address
 * nothing answers on: for tests of configuration, which override only the settings they exercise.
 */
export function siteEnv(over: Record<string, string> = {}): Record<string, string> {
  return {
    SITE_DOMAIN: 'lab.example.net',
    SITE_TOKEN_KEY: randomBytes(32).toString('base64'),
    SITE_SECRETS_KEY: randomBytes(32).toString('base64'),
    SITE_PDNS_URL: 'http://127.0.0.1:1/api/v1',
    SITE_PDNS_API_KEY: 'k',
    SITE_DNS_UPDATE_SERVER: '127.0.0.1:53',
    SITE_RECURSOR_URL: 'http://127.0.0.1:1/api/v1',
    SITE_RECURSOR_API_KEY: 'k',
    SITE_RECURSOR_FORWARD_TO: '127.0.0.1:53',
    SITE_MINIO_URL: 'http://127.0.0.1:1',
    SITE_MINIO_ACCESS_KEY: 'k',
    SITE_MINIO_SECRET_KEY: 'secretsecret',
    SITE_PROXMOX_URL: 'http://127.0.0.1:1/api2/json',
    SITE_PROXMOX_TOKEN_ID: 'u@pve!t',
    SITE_PROXMOX_TOKEN_SECRET: 's',
    ...over,
  };
}
