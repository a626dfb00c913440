/** Who is calling, as established by the bearer token (spec: Authentication). */
export type Caller =
  | { kind: 'operator' }
  | { kind: 'egress-agent' }
  /** The decode-only codec token: recognised on `/codec/*` only (docs/decisions.md). */
  | { kind: 'codec-reader' }
  /** `registered` false: a genuine token whose registry row is gone (it may restore, nothing else). */
  | { kind: 'tenant'; tenant: string; token: string; registered: boolean }
  | { kind: 'enrollment'; name: string; tokenHash: string };

export function actorOf(caller: Caller): string {
  switch (caller.kind) {
    case 'operator':
      return 'operator';
    case 'egress-agent':
      return 'egress-agent';
    case 'codec-reader':
      return 'codec-reader';
    case 'tenant':
      return `tenant:${caller.tenant}`;
    case 'enrollment':
      return `enrollment:${caller.name}`;
  }
}
