import { z } from 'zod';
import { fingerprintForm } from '../../core/fingerprint.js';
import { siteSettings } from '../../core/site.js';
import { set, together, type Env, type SiteProblem } from '../../core/site-problems.js';
import { caFile, url } from '../../core/site-variables.js';

/** The wireless controller (optional): UniFi Network's API, its login, and the developer WLANs. */
export const wifiSettings = siteSettings({
  key: 'wifi',
  variables: {
    SITE_WIFI_URL: url.optional(),
    SITE_WIFI_DEPLOYMENT: z.enum(['unifi-os', 'self-hosted']).default('unifi-os'),
    SITE_WIFI_API_KEY: z.string().optional(),
    SITE_WIFI_USERNAME: z.string().optional(),
    SITE_WIFI_PASSWORD: z.string().optional(),
    SITE_WIFI_SITE: z.string().min(1).default('default'),
    SITE_WIFI_PLACEHOLDER_NETWORK: z.string().min(1).optional(),
    SITE_WIFI_DEVELOPER_SSID: z.string().min(1).optional(),
    SITE_WIFI_DEVELOPER_VLAN: z.string().min(1).optional(),
    SITE_WIFI_DEVELOPER_BOUND_SSID: z.string().min(1).max(32).optional(),
    SITE_WIFI_CA_FILE: caFile.optional(),
    SITE_WIFI_CERT_SHA256: z
      .string()
      .regex(
        /^([0-9a-fA-F]{2}:?){31}[0-9a-fA-F]{2}$/,
        "must be the SHA-256 fingerprint of the controller's certificate: 64 hex digits, colons allowed (openssl x509 -noout -fingerprint -sha256)",
      )
      .optional(),
  },
  read: (e, core) =>
    e.SITE_WIFI_URL
      ? {
          url: e.SITE_WIFI_URL,
          deployment: e.SITE_WIFI_DEPLOYMENT,
          apiKey: e.SITE_WIFI_API_KEY || undefined,
          username: e.SITE_WIFI_USERNAME || undefined,
          password: e.SITE_WIFI_PASSWORD || undefined,
          site: e.SITE_WIFI_SITE,
          placeholderNetwork: e.SITE_WIFI_PLACEHOLDER_NETWORK,
          ca: e.SITE_WIFI_CA_FILE ?? core.backendCa,
          /** The controller's own certificate, pinned by its fingerprint (SITE_WIFI_CERT_SHA256) instead of a CA. */
          pin: e.SITE_WIFI_CERT_SHA256 ? fingerprintForm(e.SITE_WIFI_CERT_SHA256) : undefined,
          /** The tenant developer network: where admission keys go. */
          developer:
            e.SITE_WIFI_DEVELOPER_SSID && e.SITE_WIFI_DEVELOPER_VLAN
              ? {
                  ssid: e.SITE_WIFI_DEVELOPER_SSID,
                  vlan: e.SITE_WIFI_DEVELOPER_VLAN,
                  /**
                   * The second developer WLAN, MAC-filtered: an admission with `mac` gets its key there
                   * and its MAC on the WLAN's allow-list (docs/decisions.md, "Wireless controller").
                   */
                  boundSsid: e.SITE_WIFI_DEVELOPER_BOUND_SSID,
                }
              : undefined,
        }
      : undefined,
  problems: wifiProblems,
});

function wifiProblems(e: Env): SiteProblem[] {
  const problems: SiteProblem[] = [];
  // A console takes an API key or a login; a self-hosted Network application has no API keys.
  if (set(e.SITE_WIFI_URL)) {
    const selfHosted = e.SITE_WIFI_DEPLOYMENT === 'self-hosted';
    const login = set(e.SITE_WIFI_USERNAME) || set(e.SITE_WIFI_PASSWORD);
    if (selfHosted && !login)
      problems.push({ variable: 'SITE_WIFI_USERNAME', message: 'required when SITE_WIFI_DEPLOYMENT is self-hosted (it has no API keys)' });
    if (!selfHosted && !login && !set(e.SITE_WIFI_API_KEY))
      problems.push({ variable: 'SITE_WIFI_API_KEY', message: 'required when SITE_WIFI_URL is set, unless SITE_WIFI_USERNAME and SITE_WIFI_PASSWORD are' });
  }
  // One trust for the controller: a pinned certificate or a CA bundle.
  if (set(e.SITE_WIFI_CERT_SHA256) && set(e.SITE_WIFI_CA_FILE)) {
    problems.push({
      variable: 'SITE_WIFI_CERT_SHA256',
      message: "pins the controller's certificate; SITE_WIFI_CA_FILE is another trust for it: set one of the two",
    });
  }
  // The bound WLAN's allow-list admits only admitted MACs: on a WLAN that also carries unbound
  // keys it would lock every other client out.
  if (set(e.SITE_WIFI_DEVELOPER_BOUND_SSID)) {
    const others = [e.SITE_WIFI_DEVELOPER_SSID, ...Object.values((e.SITE_TRUST_CLASSES ?? {}) as Record<string, { ssid?: string }>).map((c) => c.ssid)];
    if (others.includes(e.SITE_WIFI_DEVELOPER_BOUND_SSID)) {
      problems.push({
        variable: 'SITE_WIFI_DEVELOPER_BOUND_SSID',
        message: "must be a WLAN of its own: not the developer SSID nor a trust class's (its MAC allow-list would lock their clients out)",
      });
    }
  }
  return [
    ...problems,
    ...together(e, [
      ['SITE_WIFI_USERNAME', ['SITE_WIFI_PASSWORD']],
      ['SITE_WIFI_PASSWORD', ['SITE_WIFI_USERNAME']],
      ['SITE_WIFI_DEVELOPER_SSID', ['SITE_WIFI_DEVELOPER_VLAN', 'SITE_WIFI_URL']],
      ['SITE_WIFI_DEVELOPER_VLAN', ['SITE_WIFI_DEVELOPER_SSID']],
      ['SITE_WIFI_DEVELOPER_BOUND_SSID', ['SITE_WIFI_DEVELOPER_SSID']],
    ]),
  ];
}
