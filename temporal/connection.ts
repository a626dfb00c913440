import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { dataConverter } from './data-converter.js';

export interface TemporalSettings {
  address: string;
  namespace: string;
  taskQueue: string;
  codecKey: Buffer | undefined;
}

export async function connectClient(s: TemporalSettings): Promise<Client> {
  const connection = await Connection.connect({ address: s.address });
  return new Client({ connection, namespace: s.namespace, dataConverter: dataConverter(s.codecKey) });
}

export function connectWorker(s: Pick<TemporalSettings, 'address'>): Promise<NativeConnection> {
  return NativeConnection.connect({ address: s.address });
}
