const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A time as every answer carries it; a string already in toISOString()'s form (the registry's reads give that) passes as it is. */
export function isoTime(d: Date | string): string {
  return typeof d !== 'string' ? d.toISOString() : ISO_Z.test(d) ? d : new Date(d).toISOString();
}

/** A registry row's times, as the wire names them. */
export interface Stamps {
  created_at: string;
  updated_at: string;
}

export function stamps(row: { createdAt: Date | string; updatedAt: Date | string }): Stamps {
  return { created_at: isoTime(row.createdAt), updated_at: isoTime(row.updatedAt) };
}
