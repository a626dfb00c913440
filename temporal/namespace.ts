import type { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { SearchAttributeType } from '@temporalio/common';
import { SEARCH_ATTRIBUTES } from '../core/search-attributes.js';

const { temporal } = proto;

const { INDEXED_VALUE_TYPE_KEYWORD: KEYWORD, INDEXED_VALUE_TYPE_KEYWORD_LIST: KEYWORD_LIST } = temporal.api.enums.v1.IndexedValueType;

/**
 * Makes sure the namespace exists and carries the service's search attributes. Idempotent: the
 * lab and the tests call it at start; production clusters are set up by their operators.
 */
export async function ensureNamespace(connection: Connection, namespace: string): Promise<void> {
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      // protobufjs takes a plain number where its types say Long.
      workflowExecutionRetentionPeriod: { seconds: (3 * 24 * 3600) as never },
    });
  } catch (err) {
    if (!/already exists|AlreadyExists/i.test(String((err as Error).message))) throw err;
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const existing = await connection.operatorService.listSearchAttributes({ namespace });
      const missing = SEARCH_ATTRIBUTES.filter((k) => !(k.name in (existing.customAttributes ?? {})));
      if (missing.length === 0) return;
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map((k) => [k.name, k.type === SearchAttributeType.KEYWORD_LIST ? KEYWORD_LIST : KEYWORD])),
      });
      return;
    } catch (err) {
      // A just-registered namespace takes a moment to be visible.
      if (attempt >= 40) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
