import type { DeviceAddressView, DeviceView } from '../../core/views/device.js';
import { stamps } from '../../core/wire-time.js';
import type { devices, deviceAddresses } from '../schema/index.js';

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
