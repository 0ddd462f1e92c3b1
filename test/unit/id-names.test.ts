import { describe, expect, it } from 'vitest';
import { collectionAt, nestedIdNames } from '../../src/main/rpc/id-names';

describe('nested ids of a detail view', () => {
  it('knows which collection an id member holds, nested or in a list', () => {
    expect(collectionAt('scopeV2.appAccess.appIds[1]')).toBe('apps');
    expect(collectionAt('automationSteps[0].grantEntitlements.appEntitlementRefs[2].id')).toBe('entitlements');
    expect(collectionAt('ownerIds[0]')).toBe('users');
    expect(collectionAt('policyId')).toBe('policies');
    expect(collectionAt('accessReviewTemplateId')).toBe('templates');
    expect(collectionAt('displayName')).toBeNull();
    expect(collectionAt('id')).toBeNull();
  });

  it('names each nested id the store holds, once, and leaves the others out', () => {
    const asked: string[] = [];
    const names = nestedIdNames(
      {
        id: 'self',
        scopeV2: { appAccess: { appIds: ['a1', 'a2', 'a1'] } },
        steps: [{ grant: { appEntitlementRefs: [{ appId: 'a1', id: 'e1' }] } }],
        ownerIds: ['u1'],
        note: 'a1',
      },
      (collection, id) => {
        asked.push(`${collection}:${id}`);
        const known: Record<string, string> = { 'apps:a1': 'AWS Production', 'entitlements:e1': 'Admin', 'users:u1': 'Ada Allen' };
        return known[`${collection}:${id}`] ?? null;
      },
    );
    expect(names).toEqual({ a1: 'AWS Production', e1: 'Admin', u1: 'Ada Allen' });
    expect(asked).toEqual(['apps:a1', 'apps:a2', 'entitlements:e1', 'users:u1']);
  });
});
