/**
 * The reference tenant's dataset: deterministic from the seed, covering every member the spec
 * lists, with a small share of objects from a future version of the API, at every scale.
 */
import { describe, expect, it } from 'vitest';
import { AUTOMATION_STEP_ACTION_KEYS, AUTOMATION_TRIGGER_KEYS, ROUTING_RULE_ACTION_KEYS } from '../../src/shared/api-types';
import { XAA_SCOPE_CLASSIFICATION_VALUES, XAA_SCOPE_SOURCE_VALUES, XAA_SCOPE_STATE_VALUES, isKnownEnumValue } from '../../src/shared/enums';
import { iso } from '../../src/tenant/builders/context';
import { generateDataset, LARGE_SCALE, UNIT_SIZES, type CollectionName, type TenantData } from '../../src/tenant/dataset';

const COLLECTIONS: CollectionName[] = [
  'apps',
  'entitlements',
  'appUsers',
  'memberships',
  'scopes',
  'automations',
  'templates',
  'campaigns',
  'toolsets',
  'routingRules',
  'tasks',
];

function snapshot(data: TenantData): string {
  return JSON.stringify(COLLECTIONS.map((name) => [...data.collection(name).values()]));
}

function coverage(data: TenantData) {
  const automations = [...data.automations.values()];
  return {
    steps: new Set(
      automations.flatMap((a) =>
        (a.automationSteps ?? []).flatMap((s) =>
          Object.keys(s).filter((k) => (AUTOMATION_STEP_ACTION_KEYS as readonly string[]).includes(k)),
        ),
      ),
    ),
    triggers: new Set(automations.flatMap((a) => (a.triggers ?? []).flatMap((t) => Object.keys(t)))),
    actions: new Set([...data.routingRules.values()].flatMap((r) => Object.keys(r.action ?? {}))),
    states: new Set([...data.scopes.values()].map((s) => s.state)),
    classifications: new Set([...data.scopes.values()].map((s) => s.classification)),
    sources: new Set([...data.scopes.values()].map((s) => s.source)),
  };
}

describe('dataset', () => {
  it('is a pure function of the seed and the scale', () => {
    expect(snapshot(generateDataset(3))).toBe(snapshot(generateDataset(3)));
    expect(snapshot(generateDataset(3))).not.toBe(snapshot(generateDataset(4)));
    expect(snapshot(generateDataset(3, 2))).not.toBe(snapshot(generateDataset(3)));
  });

  it('demo is a believable small tenant: hundreds of objects, every collection filled', () => {
    const counts = generateDataset(1).counts();
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(300);
    expect(total).toBeLessThan(1000);
    for (const name of COLLECTIONS) expect(counts[name], name).toBeGreaterThan(0);
  });

  it.each([['demo' as const], [0.05], [3]])(
    'covers every step action, trigger, routing action and scope state/classification/source at scale %s',
    (scale) => {
      const c = coverage(generateDataset(9, scale));
      const specSteps = AUTOMATION_STEP_ACTION_KEYS.filter((k) => k !== 'sendSlackMessage');
      expect([...c.steps].sort()).toEqual([...specSteps].sort());
      expect([...c.triggers].filter((k) => (AUTOMATION_TRIGGER_KEYS as readonly string[]).includes(k)).sort()).toEqual(
        [...AUTOMATION_TRIGGER_KEYS].sort(),
      );
      expect([...c.actions].sort()).toEqual([...ROUTING_RULE_ACTION_KEYS].sort());
      expect([...c.states].filter((v) => isKnownEnumValue(XAA_SCOPE_STATE_VALUES, v)).sort()).toEqual([...XAA_SCOPE_STATE_VALUES].sort());
      expect([...c.classifications].filter((v) => isKnownEnumValue(XAA_SCOPE_CLASSIFICATION_VALUES, v)).sort()).toEqual(
        [...XAA_SCOPE_CLASSIFICATION_VALUES].sort(),
      );
      expect([...c.sources].sort()).toEqual([...XAA_SCOPE_SOURCE_VALUES].sort());
    },
  );

  it('links what the spec links: campaigns to templates, toolsets to role entitlements, scopes to their entitlements, memberships to both ends', () => {
    const data = generateDataset(12);
    for (const c of data.campaigns.values()) if (c.accessReviewTemplateId) expect(data.templates.has(c.accessReviewTemplateId)).toBe(true);
    expect([...data.campaigns.values()].some((c) => c.accessReviewTemplateId)).toBe(true);
    for (const a of data.automations.values()) {
      for (const step of a.automationSteps ?? [])
        if (step.createAccessReview?.accessReviewTemplateId)
          expect(data.templates.has(step.createAccessReview.accessReviewTemplateId)).toBe(true);
    }
    for (const p of data.toolsets.values())
      expect(data.entitlements.get(p.appEntitlementId!)).toMatchObject({ kind: 'role', appId: p.appId });
    for (const s of data.scopes.values())
      expect(data.entitlements.get(s.appEntitlementId!)).toMatchObject({ kind: 'scope', scopeId: s.id, appId: s.appId });
    for (const m of data.memberships.values()) {
      expect(data.entitlements.has(m.appEntitlementId)).toBe(true);
      expect(data.appUsers.has(m.appUserId)).toBe(true);
      expect(m.id).toBe(`${m.appEntitlementId}:${m.appUserId}`);
    }
    const kinds = new Set([...data.memberships.values()].map((m) => data.entitlements.get(m.appEntitlementId)?.kind));
    for (const kind of ['catalog', 'group', 'profile', 'role', 'permission'] as const) expect(kinds.has(kind), kind).toBe(true);
    const tasks = [...data.tasks.values()];
    expect(tasks.some((t) => t.type?.grant && t.state === 'TASK_STATE_OPEN' && !t.emergencyAccess)).toBe(true);
    expect(tasks.some((t) => t.type?.revoke)).toBe(true);
    expect(tasks.every((t) => t.policy && (t.policy.current || (t.policy.history ?? []).length > 0))).toBe(true);
  });

  it('memberships say since when and how they were granted; a share is time-bound; apps and accounts carry their dates', () => {
    const data = generateDataset(13, 3);
    const memberships = [...data.memberships.values()];
    const timeBound = memberships.filter((m) => m.deprovisionAt);
    expect(timeBound.length / memberships.length).toBeGreaterThan(0.05);
    expect(timeBound.length / memberships.length).toBeLessThan(0.15);
    for (const m of timeBound) expect(Date.parse(m.deprovisionAt!)).toBeGreaterThan(Date.parse(m.createdAt));
    const viaGroup = memberships.filter((m) => m.grantSourceIds?.length);
    expect(viaGroup.length).toBeGreaterThan(0);
    for (const m of viaGroup) {
      const source = data.entitlements.get(m.grantSourceIds![0]!)!;
      expect(source).toMatchObject({ kind: 'group', appId: m.appId });
      expect(['role', 'permission']).toContain(data.entitlements.get(m.appEntitlementId)!.kind);
    }
    for (const app of data.apps.values()) expect(Date.parse(app.updatedAt)).toBeGreaterThanOrEqual(Date.parse(app.createdAt));
    for (const u of data.appUsers.values())
      expect(Date.parse(u.createdAt)).toBeGreaterThanOrEqual(Date.parse(data.apps.get(u.appId)!.createdAt));
    for (const e of data.entitlements.values()) expect(e.description).toBeTruthy();
  });

  it('formats timestamps exactly as toISOString does', () => {
    const samples = [0, 1, 999, 86_399_999, 86_400_000, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2026, 9, 1, 12), 1.5, -1];
    for (let i = 0; i < 2000; i += 1) samples.push(Math.floor(Math.random() * 4e12));
    for (const ms of samples) expect(iso(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('carries unknown enum values and fields on about 2% of objects', () => {
    const data = generateDataset(5, 4);
    for (const name of ['scopes', 'automations', 'campaigns', 'templates', 'toolsets', 'routingRules', 'tasks'] as const) {
      const all = [...data.collection(name).values()] as Record<string, unknown>[];
      const future = all.filter((o) => 'riskScoreV3' in o);
      expect(future.length, name).toBe(all.filter((_, i) => i % 50 === 7).length);
      expect(future.length / all.length, name).toBeLessThan(0.04);
    }
    const scope = [...data.scopes.values()].find((s) => 'riskScoreV3' in s)!;
    expect(scope.classification).toBe('XAA_SCOPE_CLASSIFICATION_QUANTUM');
    const automation = [...data.automations.values()].find((a) => 'riskScoreV3' in a)!;
    expect(automation.primaryTriggerType).toBe('TRIGGER_TYPE_AGENT_EVENT');
    expect(automation.automationSteps?.some((s) => 'invokeAgent' in s)).toBe(true);
  });

  it('a number scales every collection; large is >= 100,000 objects with >= 20,000 automations, scopes and tasks, >= 200,000 memberships', () => {
    const data = generateDataset(2, 20);
    const counts = data.counts();
    expect(counts.automations).toBe(UNIT_SIZES.automations * 20);
    expect(counts.scopes).toBe(UNIT_SIZES.scopes * 20);
    expect(counts.tasks).toBe(UNIT_SIZES.tasks * 20);
    expect(counts.campaigns).toBe(UNIT_SIZES.campaigns * 20);
    expect(counts.memberships).toBe(UNIT_SIZES.memberships * 20);
    expect(counts.toolsets).toBe(UNIT_SIZES.toolsets * 20);
    // `large` is 500 units: the same arithmetic (generated in full by test/bench/tenant.bench.ts).
    const perUnit =
      Object.entries(UNIT_SIZES)
        .filter(([k]) => k !== 'identityUsers')
        .reduce((sum, [, n]) => sum + n, 0) + UNIT_SIZES.scopes;
    expect(perUnit * LARGE_SCALE).toBeGreaterThanOrEqual(100_000);
    expect(UNIT_SIZES.automations * LARGE_SCALE).toBeGreaterThanOrEqual(20_000);
    expect(UNIT_SIZES.scopes * LARGE_SCALE).toBeGreaterThanOrEqual(20_000);
    expect(UNIT_SIZES.memberships * LARGE_SCALE).toBeGreaterThanOrEqual(200_000);
    expect(UNIT_SIZES.tasks * LARGE_SCALE).toBeGreaterThanOrEqual(20_000);
    expect(counts.appUsers).toBe(UNIT_SIZES.appUsers * 20);
    expect(() => generateDataset(1, 0)).toThrow(/scale/);
  });

  it('touch() edits in place and bumps updatedAt (automations: currentVersion)', () => {
    const data = generateDataset(8);
    const scope = [...data.scopes.values()][0]!;
    const version = data.scopes.version;
    data.touch('scopes', scope.id!, { displayName: 'Renamed' });
    expect(data.scopes.get(scope.id!)).toMatchObject({ displayName: 'Renamed' });
    expect(Math.abs(Date.parse(data.scopes.get(scope.id!)!.updatedAt!) - Date.now())).toBeLessThan(5000);
    expect(data.scopes.version).toBeGreaterThan(version);
    const automation = [...data.automations.values()][0]!;
    const before = Number(automation.currentVersion);
    data.touch('automations', automation.id!);
    expect(Number(data.automations.get(automation.id!)!.currentVersion)).toBe(before + 1);
    expect(() => data.touch('tasks', 'nope')).toThrow(/no tasks object/);
    // Set keeps the place of an existing id; delete then set moves it to the end.
    const ids = [...data.scopes.keys()];
    data.scopes.set(ids[0]!, data.scopes.get(ids[0]!)!);
    expect([...data.scopes.keys()]).toEqual(ids);
    const moved = data.scopes.get(ids[0]!)!;
    data.scopes.delete(ids[0]!);
    data.scopes.set(ids[0]!, moved);
    expect([...data.scopes.keys()]).toEqual([...ids.slice(1), ids[0]]);
  });
});
