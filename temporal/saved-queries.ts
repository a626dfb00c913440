import { OUTCOME } from '../core/search-attributes.js';

/**
 * The list queries engineers keep for the Temporal UI and CLI (README "Read a run"; the lab prints
 * the UI's link). A run parked after a failed step is Running by design (it waits for the repeat of
 * its call, which resumes it), so the UI's "Failures" filter never shows it: this query does.
 */
export const PARKED_RUNS_QUERY = `ExecutionStatus="Running" AND ${OUTCOME.name}="failed"`;

/** The UI's run list filtered by a query: a link to keep, or to open from the lab's output. */
export function runListUrl(uiUrl: string, namespace: string, query: string): string {
  return `${uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(query)}`;
}
