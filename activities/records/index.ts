/**
 * What the records area offers the other areas (its public face; eslint.config.js refuses an
 * import of any other file of an area from outside it): the tenant's names in DNS, which a
 * workload's publish and the tenant's `dns` step write as a record's does.
 */
export { nameIsFree, publishName, republishNames, syncPtrs, tenantForPublishing, unpublishName, withDnsWrites } from './publish.js';
