import type { UpdateDefinition } from '@temporalio/common';
import { objectReads, type ObjectKind, type ObjectReads } from './object-reads.js';
import type { ObjectDeps } from './published-reads.js';

interface Named {
  tenant: string;
  name: string;
}

/** One of an object's runs: its workflow, the update each call is, and the run's id for an object. */
export interface ObjectRunOf<Input, Req, Res> {
  workflow: (input: Input) => Promise<Res | undefined>;
  update: UpdateDefinition<Res, [Req]>;
  id(tenant: string, name: string): string;
}

/**
 * An object whose routes write and remove it through its runs (a workload, a record, a broker
 * account), as far as it differs from the others: what it is called, how it is read, its runs.
 */
export interface ObjectDefinition<Row extends Named, View extends object, WriteReq extends Named, WriteRes, RemoveReq extends Named, RemoveRes> {
  /** What the runs' static summaries call it: `record` (`record-put of record www of tenant acme`). */
  noun: string;
  reads: ObjectKind<Row, View>;
  /** The run that writes it (a put, a create, an issue), started with its name and the site's parked timeout. */
  write: ObjectRunOf<Named & { parkedTimeoutMs: number }, WriteReq, WriteRes>;
  /** The run that removes it: its calls are all one request. */
  remove: ObjectRunOf<RemoveReq & { parkedTimeoutMs: number }, RemoveReq, RemoveRes>;
}

export interface ObjectOperations<View extends object, WriteReq, WriteRes, RemoveReq, RemoveRes> extends ObjectReads<View> {
  /**
   * Delivers the call to the object's run (apps/api/runs.ts `attempt`). `collect`: the call repeats
   * the run's own request, so an answer the run kept that no caller was handed is this call's.
   */
  write(req: WriteReq, opts?: { collect: boolean }): Promise<WriteRes>;
  /** Once it answered `deleted`, the run that wrote the object is told it is gone, so one parked on a failure ends. */
  remove(req: RemoveReq): Promise<RemoveRes>;
}

/** The operations of an object from its definition: its reads from the registry, its runs on Temporal. */
export function objectOperations<
  Row extends Named,
  View extends object,
  WriteReq extends Named,
  WriteRes,
  RemoveReq extends Named,
  RemoveRes extends { kind: string },
>(
  deps: ObjectDeps,
  def: ObjectDefinition<Row, View, WriteReq, WriteRes, RemoveReq, RemoveRes>,
): ObjectOperations<View, WriteReq, WriteRes, RemoveReq, RemoveRes> {
  const { run, parkedTimeoutMs } = deps;
  const { noun, write, remove } = def;
  return {
    ...objectReads(deps.db, def.reads),
    write: (req, opts) =>
      run.attempt(
        write.workflow,
        write.update,
        {
          workflowId: write.id(req.tenant, req.name),
          args: [{ tenant: req.tenant, name: req.name, parkedTimeoutMs }],
          tenant: req.tenant,
          object: `${noun} ${req.name}`,
          ...opts,
        },
        req,
      ),
    remove: async (req) =>
      run.superseded(
        await run.call(remove.workflow, remove.update, { workflowId: remove.id(req.tenant, req.name), tenant: req.tenant, object: `${noun} ${req.name}` }, req),
        'deleted',
        [write.id(req.tenant, req.name)],
      ),
  };
}
