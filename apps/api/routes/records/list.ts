import { RecordList } from '../../schemas/record.js';
import { records } from './resource.js';

export const { route, register } = records.list({
  summary: 'The names the tenant added, by name',
  answer: ['records', RecordList],
  list: async ({ ops }, t) => ({ records: await ops.list(t) }),
});
