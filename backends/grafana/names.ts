/** Naming of a tenant's Grafana objects. Pure. */

/** The organization of a live tenant carries the tenant's name, so it can be found again by name. */
export function orgName(tenant: string): string {
  return tenant;
}

/**
 * Grafana organizations are not deleted (the spec keeps them); an emptied one is renamed so the
 * tenant name is free for a new org, and the id keeps successive renames of one name distinct.
 */
export function deletedOrgName(tenant: string, orgId: number): string {
  return `deleted-${tenant}-${orgId}`;
}

/** Where the tenant's login lands in its own organization. */
export function dashboardUrl(publicUrl: string, orgId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/?orgId=${orgId}`;
}

/** The role the tenant's login holds in its own organization, and nowhere else. */
export const tenantRole = 'Editor';
