import type { UpdateDefinition } from '@temporalio/common';
import { DEFAULT_PARKED_MS, type Parked } from '../contracts/attempt.js';
import { serveRun, type AttemptPolicy } from './attempts.js';
import { deprecated } from './patches.js';
import { claimObject } from './run-step.js';
import { underLease, underNameLease } from './tenant-lease.js';

/**
 * What an attempt holds while it runs (workflows/tenant-lease.ts): its name on its tenant (the
 * tenant shared, the name alone), the tenant shared only, or nothing at all (an admission's key,
 * whose name has no tenant yet: its object is claimed at once).
 */
export type Hold = { tenant: string; name: string } | { tenant: string } | undefined;

/** A workload's or a record's run holds its name, so a workload and a record of one name never interleave. */
export const itsName = (req: { tenant: string; name: string }): Hold => ({ tenant: req.tenant, name: req.name });

/** A device address's run holds its device's name, so a record and the release of the address under it never interleave. */
export const itsDevice = (req: { tenant: string; device: string }): Hold => ({ tenant: req.tenant, name: req.device });

/**
 * A broker account's run holds its name in a space of its own, so an account and a workload or
 * record of the same name do not wait for each other (a username is not a DNS name).
 */
export const itsAccount = (req: { tenant: string; name: string }): Hold => ({ tenant: req.tenant, name: `broker-account:${req.name}` });

/** A Wi-Fi key's run holds its tenant only, shared with the runs on the tenant's other resources. */
export const itsTenant = (req: { tenant: string }): Hold => ({ tenant: req.tenant });

/**
 * One object's run, as its workflow defines it: everything but the attempt is the same for every
 * object (a workload, a record, a device address, a Wi-Fi key, a broker account), so each workflow
 * file says only what is particular to it.
 */
export interface ObjectRun<Req, Res extends { kind: string }> {
  /** The update that carries each call (contracts/<object>.ts). */
  update: UpdateDefinition<Res, [Req]>;
  /** The call a repeat makes, and the operation its lease names: `record put`. */
  call: string;
  /**
   * `serial`: calls that may differ (a workload's size, a record's address) run one after another;
   * else one request repeated, whose concurrent calls join one attempt (workflows/attempts.ts).
   */
  calls?: 'serial';
  hold(req: Req): Hold;
  /** The `Outcome` of a `done` answer (`published`, `created`); other answers say their kind. */
  done?: string;
  /** One attempt: the registry's part, then the backend steps (workflows/run-step.ts `runStep`). */
  attempt(req: Req): Promise<Res>;
}

/**
 * An object's run: every call an attempt under its hold, a failed one parked for the repeat. Every
 * answer of an object includes the refusal a lease waited out gives (`Busy`), but for one that
 * holds nothing.
 */
export function objectRun<Req, Res extends { kind: string }>(run: ObjectRun<Req, Res>, input: Parked): Promise<Res | undefined> {
  // Where every object workflow read its marker before: the runs of 0.14 carry it here.
  deprecated('run-model');
  const parking = { parkedTimeoutMs: input.parkedTimeoutMs ?? DEFAULT_PARKED_MS, call: run.call };
  const policy: AttemptPolicy<Res> = run.calls === 'serial' ? { kind: 'serial', park: parking } : { kind: 'parked', ...parking };
  const { done } = run;
  return serveRun(run.update, (req) => held(run, req), policy, done ? (r) => (r.kind === 'done' ? done : r.kind) : undefined);
}

function held<Req, Res extends { kind: string }>(run: ObjectRun<Req, Res>, req: Req): Promise<Res> {
  const hold = run.hold(req);
  const work = () => run.attempt(req);
  if (!hold) return claimObject().then(work);
  const holding = 'name' in hold ? underNameLease(hold.tenant, hold.name, run.call, work) : underLease(hold.tenant, 'shared', run.call, work);
  return holding as Promise<Res>;
}
