/**
 * Temporal ApplicationFailure types that cross from an activity to its workflow: the activity
 * throws them, the workflow decides on them (retry policy, or a branch). Pure data, both import it.
 */

/** The broker lost an account and the call gave no password to restore it with. */
export const BROKER_ACCOUNT_LOST = 'BrokerAccountLost';

/** The registry was away under a backend step: the run waits it out and runs the step again. */
export const REGISTRY_UNAVAILABLE = 'RegistryUnavailable';
