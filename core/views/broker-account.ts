import type { Sealed } from '../sealed.js';

/**
 * A broker account on the wire. Patterns are absolute (`<tenant>/...`), as the broker enforces
 * them. `password` only in the answer of a call that minted or was given one (and the 502 body).
 */
export interface BrokerAccountView {
  name: string;
  username: string;
  device?: string;
  publish: string[];
  subscribe: string[];
  password?: string;
  created_at: string;
  updated_at: string;
}

/** An account as it crosses Temporal: its password, when the answer carries one, sealed (core/sealed.ts). */
export type SealedBrokerAccount = Omit<BrokerAccountView, 'password'> & { password?: Sealed<string> };
