import type { devices, deviceAddresses } from '../../db/schema/index.js';
import { stamps } from '../../core/wire-time.js';

/**
 * The wire objects of the device registry and of fixed addresses. The spec leaves their fields
 * open ("not shown"); these are the service's choice (docs/decisions.md).
 */
export interface DeviceView {
  name: string;
  trust_class: string;
  /** Lowercase colon form; absent when the device was registered without one. */
  mac?: string;
  created_at: string;
  updated_at: string;
}

export interface DeviceAddressView {
  device: string;
  address: string;
  mac: string;
  trust_class: string;
  /** `<device>.<tenant zone>`, published with no PTR. */
  fqdn: string;
  created_at: string;
  updated_at: string;
}

type DeviceRow = typeof devices.$inferSelect;
type DeviceAddressRow = typeof deviceAddresses.$inferSelect;

export function viewDevice(row: DeviceRow): DeviceView {
  return {
    name: row.name,
    trust_class: row.trustClass,
    ...(row.mac ? { mac: row.mac } : {}),
    ...stamps(row),
  };
}

/** `zone` is the tenant's forward zone without the trailing dot. */
export function viewDeviceAddress(row: DeviceAddressRow, zone: string): DeviceAddressView {
  return {
    device: row.device,
    address: row.address,
    mac: row.mac,
    trust_class: row.trustClass,
    fqdn: `${row.device}.${zone}`,
    ...stamps(row),
  };
}
