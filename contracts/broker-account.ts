/**
 * The contract between the API and the worker for broker accounts: workflow ids, the update that
 * carries each issue call, and the shapes that cross Temporal (through the payload codec; the
 * password in them is sealed besides, so the codec does not reveal it).
 */
import type { RunFailure } from '../core/object-life.js';
import { attemptUpdate, type Parked } from './attempt.js';
import type { SealedBrokerAccount } from '../core/views/broker-account.js';
import type { Sealed } from '../core/sealed.js';
import type { DeleteResult, Refusal } from './tenant.js';

/** One issue call, already validated; patterns are absolute. */
export interface BrokerAccountRequest {
  tenant: string;
  name: string;
  device?: string;
  publish: string[];
  subscribe: string[];
  /** Restore only: the password the tenant holds, sealed on its way through Temporal. */
  password?: Sealed<string>;
}

export type BrokerAccountResult =
  | { kind: 'done'; account: SealedBrokerAccount }
  /** The broker step failed; the account as asked, with the password minted or given (if any). */
  | { kind: 'failed'; step: 'broker'; account: SealedBrokerAccount; failure?: RunFailure }
  | Refusal;

export type BrokerAccountDeleteResult = DeleteResult;

export interface BrokerAccountDeleteRequest extends Parked {
  tenant: string;
  name: string;
}

/** One delete call: a failed delete parks, and the repeated delete resumes it. */
export const attemptBrokerAccountDelete = attemptUpdate<BrokerAccountDeleteResult, BrokerAccountDeleteRequest>();

export interface BrokerAccountWorkflowInput {
  tenant: string;
  name: string;
  /** How long a run parked on a failed broker step waits for the repeat before it ends. */
  parkedTimeoutMs: number;
}

/** One issue call: the API's repeated call is a new attempt of the parked run. */
export const attemptBrokerAccountEnsure = attemptUpdate<BrokerAccountResult, BrokerAccountRequest>();
