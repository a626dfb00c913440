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
