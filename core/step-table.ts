/**
 * The tenant's backend steps as the workflows, the API and the worker see them: the one list of
 * them, hand-written, in the two orders the spec gives ("The steps of create, in order: ..." and
 * "Delete removes: ..."). A new step is its folder (`activities/<area>/step.ts`, bound by name in
 * activities/tenant-steps.ts, where the typecheck fails until every name here has its module) and
 * its name in each order it runs in. Pure data (workflows import it).
 *
 * A step only in `removal` is one no create runs (the tenant's broker accounts and Wi-Fi keys are
 * made by their own routes); one only in `create` is one a delete leaves alone (the fabric network
 * is the operator's to remove, and delete is refused while the fabric still carries the zone).
 */
export const TENANT_STEPS = {
  create: ['dns', 'resolver', 'state', 'network', 'device-address', 'log-store', 'dashboards'],
  removal: ['broker', 'device-address', 'wifi', 'resolver', 'dns', 'state', 'log-store', 'dashboards'],
} as const;

/** A step a tenant create runs (the spec's `step.name` enum). */
export type StepName = (typeof TENANT_STEPS.create)[number];
/** A step a tenant delete runs. */
export type RemovalStep = (typeof TENANT_STEPS.removal)[number];
/** Any tenant step. */
export type TenantStepName = StepName | RemovalStep;

export const CREATE_STEPS: StepName[] = [...TENANT_STEPS.create];
export const REMOVAL_STEPS: RemovalStep[] = [...TENANT_STEPS.removal];

/** The Temporal activity type of a step's ensure and of its removal, e.g. `dns.ensure`, `broker.remove`. */
export const ensureActivity = <S extends StepName>(step: S) => `${step}.ensure` as const;
export const removeActivity = <S extends RemovalStep>(step: S) => `${step}.remove` as const;

/** A step's plan: what its ensure would report, from reads alone (`dns.plan`). */
export const planActivity = <S extends StepName>(step: S) => `${step}.plan` as const;

export type EnsureActivityType = `${StepName}.ensure`;
export type PlanActivityType = `${StepName}.plan`;
export type RemoveActivityType = `${RemovalStep}.remove`;

/**
 * The step activities of the objects a tenant owns, `<area>.<verb>`, by object. A new backend
 * step of an object is one activity in its area's folder and one line here (the typecheck in
 * activities/index.ts fails until both agree); the worker's step metrics start at zero for each.
 */
export const OBJECT_STEP_ACTIVITIES = {
  workload: ['dns.check-name', 'hypervisor.template-disk', 'hypervisor.ensure-vm', 'dns.publish-workload', 'hypervisor.remove-vm', 'dns.unpublish-workload'],
  record: ['dns.publish-record', 'dns.unpublish-record'],
  'device-address': ['device-address.prepare', 'device-address.apply', 'device-address.release'],
  'wifi-key': ['wifi.ensure-key', 'wifi.revoke-key', 'wifi.expire-admission-keys'],
  'broker-account': ['broker.ensure-account', 'broker.remove-account'],
  /** What a reconcile re-ensures after the tenant's steps: the objects of each area, one activity per area. */
  reconcile: ['hypervisor.reconcile-workloads', 'wifi.reconcile-keys', 'broker.reconcile-accounts'],
  /** What a reconcile's plan runs after the tenant's step plans, in the same order: reads alone. */
  plan: ['hypervisor.plan-workloads', 'wifi.plan-keys', 'broker.plan-accounts'],
  /** The isolation check's probes (workflows/isolation-check.ts): a canary's credential against a canary's objects, one backend each. */
  'isolation-check': [
    'api.isolation-probe',
    'dns.isolation-probe',
    'state.isolation-probe',
    'broker.isolation-probe',
    'log-store.isolation-probe',
    'dashboards.isolation-probe',
    'wifi.isolation-probe',
    'certificates.isolation-probe',
  ],
} as const;

/** The activities a reconcile runs after the tenant's steps, one per area, in order. */
export const RECONCILE_AREAS = OBJECT_STEP_ACTIVITIES.reconcile;

/** Each reconcile area's plan. */
export const PLAN_OF_AREA = {
  'hypervisor.reconcile-workloads': 'hypervisor.plan-workloads',
  'wifi.reconcile-keys': 'wifi.plan-keys',
  'broker.reconcile-accounts': 'broker.plan-accounts',
} as const satisfies Record<(typeof RECONCILE_AREAS)[number], (typeof OBJECT_STEP_ACTIVITIES.plan)[number]>;

/** Every step activity type: the tenant's steps, the fabric reads, and the objects' steps. */
export const STEP_ACTIVITY_TYPES: readonly string[] = [
  ...CREATE_STEPS.map(ensureActivity),
  ...CREATE_STEPS.map(planActivity),
  ...REMOVAL_STEPS.map(removeActivity),
  'network.observe-indexes',
  'network.observe-zone',
  ...Object.values(OBJECT_STEP_ACTIVITIES).flat(),
];

export type ObjectStepActivity = (typeof OBJECT_STEP_ACTIVITIES)[keyof typeof OBJECT_STEP_ACTIVITIES][number];

/** The backend steps of a workload or record: the error text names one of these and nothing more. */
export type PublishStep = 'hypervisor' | 'dns';

/** The backend steps of devices, addresses and Wi-Fi keys, as a failure names them. */
export type BackendStep = 'device-address' | 'dns' | 'wifi';
