/**
 * Crash safety of `attest queue send`: the process is killed with SIGKILL at 20 random moments
 * while it sends; after each kill it is started again. In the end every change is applied on the
 * tenant exactly once and none is lost.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOutbox } from '../../src/main/outbox/queue';
import { openStore } from '../../src/main/store/db';
import { startTenant } from '../../src/tenant/server';
import {
  appliedCounts,
  escalatableTasks,
  openTestStore,
  removableMemberships,
  resourceServers,
  tempDir,
  type JournalLike,
} from './outbox.helpers';

type Tenant = Awaited<ReturnType<typeof startTenant>>;

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'attest.mjs');
const KILLS = 20;

let tenant: Tenant;
let tmp: ReturnType<typeof tempDir>;
let storeFile: string;

/** A small seeded PRNG: the kill moments are random but the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  killed: boolean;
}

/** Starts `attest queue send`; kills it `killAfterMs` after it starts sending (null: let it finish). */
function runSend(killAfterMs: number | null): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, 'queue', 'send', '--store', storeFile, '--client-id', tenant.clientId, '--server-url', tenant.url, '--concurrency', '4'],
      {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    let stderr = '';
    let killed = false;
    let timer: NodeJS.Timeout | null = null;
    const kill = () => {
      if (child.exitCode === null && child.pid) {
        killed = true;
        process.kill(child.pid, 'SIGKILL');
      }
    };
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // Kill at a random moment once it is sending (or reconciling what the last kill left).
      if (killAfterMs !== null && !timer && /sending \d+ item|in flight when Attest last stopped|reconciled/.test(stderr))
        timer = setTimeout(kill, killAfterMs);
    });
    child.stdout.resume();
    child.stdin.end(tenant.clientSecret);
    // A safety net: a run that never reaches sending is killed too (also a "random moment").
    const guard = setTimeout(kill, killAfterMs === null ? 55_000 : 8_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(guard);
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stderr, killed });
    });
  });
}

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 2024, scale: 4, faults: 'latency=50,jitter=50' });
  tmp = tempDir('attest-outbox-crash-');
  storeFile = join(tmp.dir, 'store.sqlite');
  const { store, outboxStore } = openTestStore(storeFile, tenant.data);
  const outbox = openOutbox(outboxStore);
  for (const r of removableMemberships(tenant.data, 160)) outbox.enqueue('remove-membership', r);
  const servers = resourceServers(tenant.data, 2);
  for (let i = 0; i < 16; i += 1)
    outbox.enqueue('create-scope', { ...servers[i % servers.length]!, scopeValue: `crash:test:${i}`, displayName: `Crash ${i}` });
  for (const t of escalatableTasks(tenant.data, 6)) outbox.enqueue('escalate-task', t);
  const owner = tenant.data.identityUserIds[0]!;
  for (let i = 0; i < 8; i += 1) outbox.enqueue('create-campaign', { displayName: `Crash campaign ${i}`, ownerIds: [owner] });
  // Several updates of one template: per-object order must hold across crashes.
  const template = [...tenant.data.templates.values()][0] as unknown as { id: string };
  (tenant.data.templates.get(template.id) as unknown as { description: string }).description = 'original';
  for (let i = 0; i < 4; i += 1) {
    outbox.enqueue('update-template', { templateId: template.id, changes: { description: `revision ${i}` } });
    (tenant.data.templates.get(template.id) as unknown as { description: string }).description = `revision ${i}`;
  }
  // The tenant must not see those local edits: put the original back.
  (tenant.data.templates.get(template.id) as unknown as { description: string }).description = 'original';
  store.close();
});

afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

describe('attest queue send survives SIGKILL', () => {
  it('20 kills at random moments, then a clean run: every change applied exactly once, none lost', async () => {
    const random = mulberry32(42);
    const runs: Run[] = [];
    for (let i = 0; i < KILLS; i += 1) runs.push(await runSend(Math.floor(random() * 200)));
    const killedWhileWorking = runs.filter((r) => r.killed && r.signal === 'SIGKILL').length;
    const story = runs
      .map((r, i) => `#${i + 1} ${r.killed ? 'killed' : `exit ${r.code}`}: ${r.stderr.split('\n').filter(Boolean).slice(-2).join(' | ')}`)
      .join('\n');
    expect(killedWhileWorking, story).toBeGreaterThanOrEqual(KILLS - 2);
    // Restart until done (a clean run reconciles what the last kill left, then sends the rest).
    let final = await runSend(null);
    for (let i = 0; i < 3 && final.code !== 0; i += 1) final = await runSend(null);
    expect(final.stderr).not.toMatch(/Error:/);
    expect(final.code).toBe(0);

    const store = openStore(storeFile);
    try {
      const outbox = openOutbox(store);
      const items = outbox.list();
      expect(items).toHaveLength(194);
      expect(outbox.counts()).toMatchObject({ succeeded: 194, queued: 0, sending: 0, uncertain: 0, failed: 0 });
      const journal = tenant.journal() as unknown as JournalLike[];
      const applied = appliedCounts(items, journal);
      expect([...applied.entries()].filter(([, n]) => n !== 1)).toEqual([]);
      expect(journal).toHaveLength(194);
      // The template updates went out in queue order.
      const revisions = journal
        .filter((j) => j.operation === 'updateTemplate')
        .map((j) => (j.request as { accessReviewTemplate: { description: string } }).accessReviewTemplate.description);
      expect(revisions).toEqual(['revision 0', 'revision 1', 'revision 2', 'revision 3']);
      // The outbox journal shows the interruptions it recovered from.
      expect(outbox.journal().filter((j) => j.event === 'interrupted').length).toBeGreaterThan(0);
      expect(outbox.journal().filter((j) => j.event === 'reconcile').length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  }, 120_000);
});
