import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/main/app/changes';
import { fieldChanges } from '../../src/main/store/changes';
import { openStore, type Store } from '../../src/main/store/db';
import { storeRun } from '../helpers/report-fixtures';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'attest-diff-'));
  store = openStore(join(dir, 'store.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const scope = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  scopeValue: `files:${id}`,
  displayName: `Scope ${id}`,
  state: 'XAA_SCOPE_STATE_ENABLED',
  classification: 'XAA_SCOPE_CLASSIFICATION_READ',
  ...fields,
});
const automation = (id: string, subject: string) => ({
  id,
  displayName: `Automation ${id}`,
  enabled: true,
  automationSteps: [{ stepName: 'wait' }, { stepName: 'mail', sendEmail: { subject, userIdsCel: 'subject.manager' } }],
});
const all = { offset: 0, limit: 100, collection: null, change: null } as const;

describe('field changes: each changed value with its old and new value', () => {
  it('goes down to the leaves of objects and of same-length arrays, and reports absent values as undefined', () => {
    const before = { state: 'A', steps: [{ a: 1 }, { b: { c: 'x' } }], gone: true, list: [1, 2] };
    const after = { state: 'B', steps: [{ a: 1 }, { b: { c: 'y' } }], added: 'new', list: [1, 2, 3] };
    expect(fieldChanges(before, after)).toEqual({
      changes: [
        { field: 'added', before: undefined, after: 'new' },
        { field: 'gone', before: true, after: undefined },
        { field: 'list', before: [1, 2], after: [1, 2, 3] },
        { field: 'state', before: 'A', after: 'B' },
        { field: 'steps[1].b.c', before: 'x', after: 'y' },
      ],
      total: 5,
    });
    expect(fieldChanges({ a: 1 }, { a: 1 })).toEqual({ changes: [], total: 0 });
  });

  it('names a campaign’s fields inside its wrapper as changedFields does (the campaign’s own first), and counts past the limit', () => {
    const wrap = (state: string, other: string) => ({ accessReview: { accessReview: { state }, createdBy: other }, expanded: [] });
    expect(fieldChanges(wrap('DRAFT', 'u1'), wrap('STARTED', 'u2'), 'accessReview.accessReview').changes).toEqual([
      { field: 'state', before: 'DRAFT', after: 'STARTED' },
      { field: 'accessReview.createdBy', before: 'u1', after: 'u2' },
    ]);
    const many = (n: number) => Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`f${i}`, n]));
    const capped = fieldChanges(many(1), many(2), '', 10);
    expect(capped.changes).toHaveLength(10);
    expect(capped.total).toBe(80);
  });
});

describe('comparing two runs', () => {
  it('counts the changes per collection and pages through them with each value before and after', () => {
    const r1 = storeRun(store, { scopes: [scope('a'), scope('b'), scope('c')], automations: [automation('x', 'Hello')] });
    const r2 = storeRun(store, {
      scopes: [scope('a'), scope('b', { classification: 'XAA_SCOPE_CLASSIFICATION_DANGEROUS' }), scope('d')],
      automations: [automation('x', 'Hello again')],
    });
    const found = compareRuns(store, { ...all, fromRun: null, toRun: null });
    expect([found.fromRun, found.toRun]).toEqual([r1, r2]);
    expect(found.runs.map((r) => r.id)).toEqual([r2, r1]);
    expect(found.counts).toEqual([
      { collection: 'automations', added: 0, removed: 0, modified: 1 },
      { collection: 'scopes', added: 1, removed: 1, modified: 1 },
    ]);
    expect(found.total).toBe(4);
    expect(found.changes.map((c) => [c.collection, c.id, c.change])).toEqual([
      ['automations', 'x', 'modified'],
      ['scopes', 'b', 'modified'],
      ['scopes', 'c', 'removed'],
      ['scopes', 'd', 'added'],
    ]);
    expect(found.changes[0]!.fields).toEqual([{ field: 'automationSteps[1].sendEmail.subject', before: 'Hello', after: 'Hello again' }]);
    expect(found.changes[1]!.fields).toEqual([
      { field: 'classification', before: 'XAA_SCOPE_CLASSIFICATION_READ', after: 'XAA_SCOPE_CLASSIFICATION_DANGEROUS' },
    ]);
    // The removed object keeps the title it had.
    expect(found.changes[2]!.title).toBe('Scope c');

    // One collection, one kind, one page at a time: the same changes the diff report lists.
    const scopesOnly = compareRuns(store, { ...all, fromRun: r1, toRun: r2, collection: 'scopes', offset: 1, limit: 1 });
    expect(scopesOnly.total).toBe(3);
    expect(scopesOnly.changes.map((c) => c.id)).toEqual(['c']);
    const added = compareRuns(store, { ...all, fromRun: r1, toRun: r2, change: 'added' });
    expect(added.changes.map((c) => c.id)).toEqual(['d']);
    expect(store.diff(r1, r2).map((d) => [d.id, d.change])).toEqual(found.changes.map((c) => [c.id, c.change]));
  });

  it('has nothing to compare before two completed runs, and refuses runs in the wrong order in words without CLI flags', () => {
    expect(compareRuns(store, { ...all, fromRun: null, toRun: null })).toMatchObject({ fromRun: null, toRun: null, total: 0 });
    const r1 = storeRun(store, { scopes: [scope('a')] });
    expect(compareRuns(store, { ...all, fromRun: null, toRun: null }).fromRun).toBeNull();
    const r2 = storeRun(store, { scopes: [scope('a', { state: 'XAA_SCOPE_STATE_DISABLED' })] });
    let message = '';
    try {
      compareRuns(store, { ...all, fromRun: r2, toRun: r1 });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(new RegExp(`run ${r2} must come before run ${r1}`));
    expect(message).not.toMatch(/--/);
    expect(() => compareRuns(store, { ...all, fromRun: r1, toRun: 99 })).toThrow(/run 99 is not a completed sync run/);
  });

  it('shows old and new values in an object’s history', () => {
    storeRun(store, { scopes: [scope('a')] });
    const r2 = storeRun(store, { scopes: [scope('a', { state: 'XAA_SCOPE_STATE_DISABLED' })] });
    const modified = store.history('scopes', 'a').find((v) => v.change === 'modified')!;
    expect(modified.runId).toBe(r2);
    expect(modified.fieldChanges).toEqual([{ field: 'state', before: 'XAA_SCOPE_STATE_ENABLED', after: 'XAA_SCOPE_STATE_DISABLED' }]);
    expect(modified.fieldCount).toBe(1);
  });
});
