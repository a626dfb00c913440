import { z } from '@hono/zod-openapi';
import { DEFAULT_CORES, DEFAULT_MEMORY_MB, WORKLOAD_NAME } from '../../../core/names/workload.js';
import { uncarriableReason } from '../../../core/names/carriable.js';
import { sshKeyProblem } from '../../../core/names/ssh-key.js';
import { dnsLabel, listOf, objectParams, Stamps, TenantName, conditioned, failureOf } from './common.js';

export const WorkloadName = dnsLabel(
  WORKLOAD_NAME,
  'must be a DNS label of 1-20 lowercase alphanumerics or dashes, not starting or ending with a dash',
).openapi({ example: 'web' });

export const WorkloadParam = objectParams('workload', WorkloadName);

export const WorkloadRequest = z
  .strictObject({
    name: WorkloadName,
    cores: z.number().int().min(1).max(64).default(DEFAULT_CORES),
    memory_mb: z.number().int().min(256).max(1_048_576).default(DEFAULT_MEMORY_MB),
    disk_gb: z.number().int().min(1).max(65_536).optional().openapi({ description: "grows the template's disk; never shrinks it" }),
    ssh_keys: z
      .array(
        z
          .string()
          .max(16_384)
          // First what no backend can carry (a separator in a comment would pass the key's check but
          // split the key in cloud-init), then a key PVE's `ssh-keygen -l` reads: either would fail
          // the hypervisor step on every repeat.
          .superRefine((v, ctx) => {
            const reason = uncarriableReason(v) ?? sshKeyProblem(v);
            if (reason) ctx.addIssue({ code: 'custom', message: reason });
          })
          .openapi({
            description: 'an OpenSSH public key on one line: `<type> <base64 key data> [comment]`, key data of that type as `ssh-keygen -l` reads it',
          }),
      )
      .max(32)
      .optional()
      .openapi({ description: "public keys for the site's tenant account; written at first boot only" }),
  })
  .openapi('WorkloadRequest');

export const Workload = z
  .object({
    tenant: TenantName,
    name: WorkloadName,
    fqdn: z.string(),
    status: z.enum(['provisioning', 'ready', 'deleting']),
    ordinal: z.number().int(),
    vmid: z.number().int(),
    cores: z.number().int(),
    memory_mb: z.number().int(),
    disk_gb: z.number().int(),
    mac: z.string(),
    address: z.string(),
    login_user: z.string().openapi({ description: 'the account that received the keys' }),
    ...Stamps,
    ...conditioned,
  })
  .openapi('Workload');

export const WorkloadList = listOf('workloads', Workload, 'WorkloadList');

export const WorkloadCreateFailure = failureOf('workload', Workload, 'the partial workload, once it is registered', 'WorkloadCreateFailure');
