// The bodies of /healthz and /readyz as openapi.yaml gives them, for tests that compare them whole.

/** /healthz: the process is up. */
export const HEALTHY = '{"status":"ok"}';
/** /readyz with the registry reachable and migrated. */
export const READY = '{"status":"ok","database":"ok"}';
/** /readyz (503) while the registry cannot be reached. */
export const UNREACHABLE = '{"status":"unavailable","database":"unreachable"}';
/** /readyz (503) while the registry's migrations run. */
export const MIGRATING = '{"status":"unavailable","database":"migrating"}';
