import { Certificate } from '../../schemas/certificate.js';
import { certificates } from './resource.js';

export const { route, register } = certificates.get({
  summary: 'The current certificate of a name',
  answer: ['the current certificate', Certificate],
  missing: 'certificate not found',
  read: ({ ops }, { t, certificate }) => ops.get(t, certificate),
});
