import type { DataConverter } from '@temporalio/common';
import { createRequire } from 'node:module';
import { AesGcmCodec } from './codec.js';

const require = createRequire(import.meta.url);

/** Client and worker share one converter; the failure converter is loaded by path (workflow sandbox). */
export function dataConverter(codecKey: Buffer | undefined): DataConverter {
  return {
    payloadCodecs: codecKey ? [new AesGcmCodec(codecKey)] : [],
    failureConverterPath: failureConverterPath(),
  };
}

function failureConverterPath(): string {
  try {
    return require.resolve('./failure-converter.js');
  } catch {
    return require.resolve('./failure-converter.ts');
  }
}
