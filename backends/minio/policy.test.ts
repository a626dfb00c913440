import { describe, it, expect } from 'vitest';
import { normalizePolicy, samePolicy, tenantPolicy, tenantPolicyName, validatePolicyInput } from './policy.js';

describe('tenantPolicyName', () => {
  it.each([
    ['acme', 'tenant-acme'],
    ['a1', 'tenant-a1'],
  ])('%s -> %s', (tenant, name) => expect(tenantPolicyName(tenant)).toBe(name));
});

describe('tenantPolicy', () => {
  it('grants the prefix objects, a prefix-bound listing and the bucket location, nothing else', () => {
    expect(tenantPolicy('tenants', 'acme/')).toEqual({
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Action: ['s3:GetBucketLocation'], Resource: ['arn:aws:s3:::tenants'] },
        {
          Effect: 'Allow',
          Action: ['s3:ListBucket'],
          Resource: ['arn:aws:s3:::tenants'],
          Condition: { StringLike: { 's3:prefix': ['acme/*'] } },
        },
        { Effect: 'Allow', Action: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], Resource: ['arn:aws:s3:::tenants/acme/*'] },
      ],
    });
  });

  it.each([
    ['tenants', 'acme', 'a prefix without its slash would reach acme2/'],
    ['tenants', '/', 'the bucket root'],
    ['tenants', '', 'the whole bucket'],
    ['tenants', 'a*/', 'a wildcard'],
    ['tenants', '/acme/', 'a leading slash'],
    ['Tenants', 'acme/', 'an upper-case bucket'],
    ['t', 'acme/', 'a too-short bucket'],
    ['ten..ants', 'acme/', 'a bucket with ..'],
  ])('refuses bucket %j prefix %j (%s)', (bucket, prefix) => {
    expect(() => validatePolicyInput(bucket, prefix)).toThrow();
    expect(() => tenantPolicy(bucket, prefix)).toThrow();
  });
});

describe('samePolicy', () => {
  const desired = tenantPolicy('tenants', 'acme/');
  it.each([
    ['MinIO re-marshalled with one-space indentation', JSON.parse(JSON.stringify(desired, null, ' ')), true],
    [
      'scalars instead of one-element arrays, statements and actions reordered',
      {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Action: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'], Resource: 'arn:aws:s3:::tenants/acme/*' },
          { Effect: 'Allow', Action: 's3:ListBucket', Resource: 'arn:aws:s3:::tenants', Condition: { StringLike: { 's3:prefix': 'acme/*' } } },
          { Effect: 'Allow', Action: 's3:GetBucketLocation', Resource: 'arn:aws:s3:::tenants' },
        ],
      },
      true,
    ],
    ["another tenant's prefix", tenantPolicy('tenants', 'other/'), false],
    ['another bucket', tenantPolicy('others', 'acme/'), false],
    [
      'a widened object grant',
      { ...desired, Statement: desired.Statement.map((s, i) => (i === 2 ? { ...s, Resource: ['arn:aws:s3:::tenants/*'] } : s)) },
      false,
    ],
    ['the listing condition dropped', { ...desired, Statement: desired.Statement.map((s) => ({ ...s, Condition: undefined })) }, false],
    ['an extra statement', { ...desired, Statement: [...desired.Statement, { Effect: 'Allow', Action: ['s3:*'], Resource: ['arn:aws:s3:::*'] }] }, false],
    ['a Deny instead of Allow', { ...desired, Statement: desired.Statement.map((s) => ({ ...s, Effect: 'Deny' })) }, false],
    ['not a policy', 'nonsense', false],
  ])('%s -> %s', (_what, other, same) => {
    expect(samePolicy(other, desired)).toBe(same);
  });

  it('normalizes a document with a bad Effect to undefined', () => {
    expect(normalizePolicy({ Version: '2012-10-17', Statement: [{ Effect: 'Maybe', Action: 's3:*', Resource: '*' }] })).toBeUndefined();
  });
});
