/**
 * The API process's stop bound (apps/api/main.ts): its close ends the open calls at once (their
 * runs go on; a repeat collects the answer), so what it waits for is the registry's pool,
 * Temporal's channel and the listeners. Apart from main.ts, which starts the process when imported.
 */
export const API_STOP_BOUND_MS = 10_000;
