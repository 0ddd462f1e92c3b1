/**
 * `attest list`, and what `list` and `search` print, run as the real CLI (a child process) on a
 * store synced from the reference tenant: filters over every trigger of an automation, the spec's
 * automation filters, sorting and limits, CSV and JSON, and tenant text with terminal escapes.
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Automation } from '../../src/shared/api-types';
import { createApiClient } from '../../src/main/api/client';
import { openStore } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { runAttest } from '../helpers/cli';
import { tempDir } from './sync.helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs bin/attest.mjs as a process (stdout a pipe, not a terminal). */
function attestProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/attest.mjs', ...args], { cwd: root, env: { ...process.env, NODE_OPTIONS: '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Runs the CLI in this process, stdout not a terminal, with no width from the environment. */
const attest = (args: string[]) => runAttest(args, '', { ...process.env, COLUMNS: '' });

const OSC52 = '\u001b]52;c;ZXZpbA==\u0007';
const CLEAR = '\u001b[2J\u001b[3J\u001b[H';
// An OSC 52 clipboard write, clear-screen, and a C1 CSI (which JSON may carry raw).
const EVIL_NAME = `Quokka ${OSC52}${CLEAR}payroll\u009b2J`;

let tenant: ReferenceTenant;
let tmp: ReturnType<typeof tempDir>;
let file: string;
/** Automations changed before the sync: a second (schedule) trigger; a schedule trigger in a draft only; an escaped name. */
let secondTrigger: Automation;
let draftOnly: Automation;
let evil: Automation;

const isSchedule = (t: unknown) => typeof t === 'object' && t !== null && 'schedule' in t;
/** The automations with a schedule trigger among any of their triggers, live or draft, or of that primary type: from the tenant's data. */
function expectedScheduled(): Set<string> {
  const ids = [...tenant.data.automations.values()]
    .filter(
      (a) =>
        a.primaryTriggerType === 'TRIGGER_TYPE_SCHEDULE' || (a.triggers ?? []).some(isSchedule) || (a.draftTriggers ?? []).some(isSchedule),
    )
    .map((a) => a.id!);
  return new Set(ids);
}

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 23 });
  const all = [...tenant.data.automations.values()];
  const scheduleBody = all.flatMap((a) => a.triggers ?? []).find(isSchedule)!;
  expect(scheduleBody).toBeDefined();
  const plain = all.filter((a) => a.primaryTriggerType !== 'TRIGGER_TYPE_SCHEDULE' && !(a.triggers ?? []).some(isSchedule));
  secondTrigger = plain.find((a) => !a.isDraft && (a.triggers ?? []).length === 1)!;
  secondTrigger.triggers = [...secondTrigger.triggers!, structuredClone(scheduleBody)];
  draftOnly = plain.find((a) => a !== secondTrigger)!;
  draftOnly.isDraft = true;
  draftOnly.enabled = false;
  draftOnly.draftTriggers = [...(draftOnly.triggers ?? []), structuredClone(scheduleBody)];
  evil = plain.find((a) => a !== secondTrigger && a !== draftOnly)!;
  evil.displayName = EVIL_NAME;
  evil.description = `Quokka description ${CLEAR}end`;

  tmp = tempDir('attest-list-cli-');
  file = join(tmp.dir, 'store.sqlite');
  const store = openStore(file);
  try {
    const api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
    expect((await syncTenant({ store, api })).status).toBe('completed');
  } finally {
    store.close();
  }
});

afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

describe('attest list', () => {
  it('lists every automation with a schedule trigger among any of its triggers, drafts included (-o csv)', async () => {
    const expected = expectedScheduled();
    expect(expected.has(secondTrigger.id!)).toBe(true);
    expect(expected.has(draftOnly.id!)).toBe(true);
    const primary = [...tenant.data.automations.values()].filter((a) => a.primaryTriggerType === 'TRIGGER_TYPE_SCHEDULE').length;
    expect(expected.size).toBeGreaterThan(primary);

    const listed = await attestProcess([
      'list',
      'automations',
      '--filter',
      'triggerType=TRIGGER_TYPE_SCHEDULE',
      '-o',
      'csv',
      '--store',
      file,
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    const [header, ...rows] = parse(listed.stdout) as string[][];
    expect(header![0]).toBe('id');
    expect(new Set(rows.map((r) => r[0]))).toEqual(expected);
    expect(rows).toHaveLength(expected.size);
    expect(listed.stderr).toContain(`${expected.size} automations`);

    // The offline "any trigger" filter under its own name is the same filter.
    const anyAlias = await attest(['list', 'automations', '--filter', 'anyTriggerTypes=TRIGGER_TYPE_SCHEDULE', '--json', '--store', file]);
    expect(anyAlias.code, anyAlias.stderr).toBe(0);
    const json = JSON.parse(anyAlias.stdout) as { total: number; rows: { id: string; raw: string }[] };
    expect(json.total).toBe(expected.size);
    expect(new Set(json.rows.map((r) => r.id))).toEqual(expected);
    // JSON carries each object exactly as the tenant sent it.
    for (const row of json.rows) expect(row.raw).toBe(JSON.stringify(tenant.data.automations.get(row.id)));

    // The spec's name, triggerTypes, matches as the server does: the primary trigger type only.
    const spec = await attest(['list', 'automations', '--filter', 'triggerTypes=TRIGGER_TYPE_SCHEDULE', '--json', '--store', file]);
    expect(spec.code, spec.stderr).toBe(0);
    const primaryIds = new Set(
      [...tenant.data.automations.values()].filter((a) => a.primaryTriggerType === 'TRIGGER_TYPE_SCHEDULE').map((a) => a.id!),
    );
    expect(new Set((JSON.parse(spec.stdout) as { rows: { id: string }[] }).rows.map((r) => r.id))).toEqual(primaryIds);
    expect(primaryIds.has(secondTrigger.id!)).toBe(false);
  });

  it('finds them in a store synced before the column existed (columns extracted again on open)', async () => {
    const db = new Database(file);
    db.prepare("UPDATE object_versions SET cols = json_remove(cols, '$.triggerType')").run();
    db.prepare("DELETE FROM store_meta WHERE key = 'columns_revision'").run();
    db.close();
    const listed = await attest([
      'list',
      'automations',
      '--filter',
      'triggerType=TRIGGER_TYPE_SCHEDULE',
      '--columns',
      'id',
      '-o',
      'csv',
      '--store',
      file,
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(new Set(listed.stdout.trim().split('\n').slice(1))).toEqual(expectedScheduled());
    // And search filters (facets) follow.
    const found = await attest(['search', 'payroll', '--filter', 'triggerType=TRIGGER_TYPE_SCHEDULE', '--json', '--store', file]);
    expect(found.code, found.stderr).toBe(0);
  });

  it('filters by status (statuses), draft and app, any of several values; sorts and limits', async () => {
    const automations = [...tenant.data.automations.values()];
    const off = await attest(['list', 'automations', '--filter', 'statuses=AUTOMATION_STATUS_FILTER_OFF', '--json', '--store', file]);
    expect(off.code, off.stderr).toBe(0);
    expect(new Set((JSON.parse(off.stdout) as { rows: { id: string }[] }).rows.map((r) => r.id))).toEqual(
      new Set(automations.filter((a) => a.enabled !== true).map((a) => a.id)),
    );

    const [appA, appB] = [...new Set(automations.map((a) => a.appId!))];
    const byApp = await attest([
      'list',
      'automations',
      '--filter',
      `appId=${appA}`,
      '--filter',
      `appIds=${appB}`,
      '--filter',
      'isDraft=false',
      '-o',
      'csv',
      '--columns',
      'id,appId,isDraft',
      '--store',
      file,
    ]);
    expect(byApp.code, byApp.stderr).toBe(0);
    const rows = (parse(byApp.stdout) as string[][]).slice(1);
    expect(new Set(rows.map((r) => r[0]))).toEqual(
      new Set(automations.filter((a) => (a.appId === appA || a.appId === appB) && !a.isDraft).map((a) => a.id)),
    );

    const sorted = await attest([
      'list',
      'scopes',
      '--sort',
      'scopeValue:desc',
      '--limit',
      '5',
      '-o',
      'csv',
      '--columns',
      'scopeValue',
      '--store',
      file,
    ]);
    expect(sorted.code, sorted.stderr).toBe(0);
    const values = [...tenant.data.scopes.values()].map((s) => s.scopeValue ?? '');
    const top = (parse(sorted.stdout) as string[][]).slice(1).map((r) => r[0]);
    expect(top).toEqual([...values].sort().reverse().slice(0, 5));
    expect(sorted.stderr).toContain(`${values.length} scopes, 5 shown`);
  });

  it('lists users and policies, and a table shows the people and policies an id column names by name, the id in brackets', async () => {
    const users = await attest(['list', 'users', '--json', '--store', file]);
    expect(users.code, users.stderr).toBe(0);
    expect((JSON.parse(users.stdout) as { total: number }).total).toBe(tenant.data.users.size);
    const policies = await attest(['list', 'policies', '-o', 'csv', '--columns', 'id,displayName', '--store', file]);
    expect(policies.code, policies.stderr).toBe(0);
    const rows = parse(policies.stdout, { columns: true }) as { id: string; displayName: string }[];
    expect(new Map(rows.map((r) => [r.id, r.displayName]))).toEqual(
      new Map([...tenant.data.policies.values()].map((p) => [p.id, p.displayName])),
    );

    const campaign = [...tenant.data.campaigns.values()][0]!;
    const creator = tenant.data.users.get(campaign.createdById!)!;
    const policy = tenant.data.policies.get(campaign.policyId!)!;
    const args = ['list', 'campaigns', '--filter', `id=${campaign.id}`, '--columns', 'createdById,policyId', '--store', file];
    const table = await attest(args);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(`${creator.displayName} <${creator.email}> (${creator.id})`);
    expect(table.stdout).toContain(`${policy.displayName} (${policy.id})`);
    // CSV keeps the ids as stored.
    const csv = await attest([...args, '-o', 'csv']);
    expect(parse(csv.stdout, { columns: true })).toEqual([{ createdById: creator.id, policyId: policy.id }]);
  });

  it('refuses bad input with exit 2 and a message naming it', async () => {
    const cases: [string[], RegExp][] = [
      [['list', 'automations', '--filter', 'triggerType'], /--filter 'triggerType' is not KEY=VALUE/],
      [['list', 'automations', '--filter', 'zzz=1'], /unknown column 'zzz' in automations/],
      [['list', 'automations', '--filter', 'enabled=maybe'], /filter 'enabled' takes true or false/],
      [
        ['list', 'automations', '--filter', 'statuses=SOMETIMES'],
        /--filter statuses takes AUTOMATION_STATUS_FILTER_ON or AUTOMATION_STATUS_FILTER_OFF, not 'SOMETIMES'/,
      ],
      [['list', 'automations', '--sort', 'nope:desc'], /--sort: automations has no column 'nope'/],
      [['list', 'automations', '--sort', 'displayName:sideways'], /is not FIELD, FIELD:asc or FIELD:desc/],
      [['list', 'automations', '-o', 'xml'], /-o must be one of table, json, csv/],
      [
        ['list', 'automations', '--limit', '999999999999999999999'],
        /--limit must be a whole number from 1 to 1,000,000,000, not '999999999999999999999'/,
      ],
      [['list', 'nothing'], /COLLECTION must be one of/],
      [['list'], /give one COLLECTION/],
    ];
    for (const [args, message] of cases) {
      const run = await attest([...args, '--store', file]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
  });
});

describe('tenant text with terminal escapes', () => {
  // eslint-disable-next-line no-control-regex -- finding raw control characters is the point
  const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

  it('attest search prints a display name with OSC 52 and clear-screen escapes escaped; JSON keeps it exact', async () => {
    const found = await attestProcess(['search', 'Quokka', '--store', file]);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain('Quokka \\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\\x1b[3J\\x1b[H');
    expect(raw.test(found.stdout)).toBe(false);
    const json = await attest(['search', 'Quokka', '-o', 'json', '--store', file]);
    const hits = (JSON.parse(json.stdout) as { hits: { id: string; title: string }[] }).hits;
    expect(hits.find((h) => h.id === evil.id)?.title).toBe(EVIL_NAME);
  });

  it('list prints it escaped in tables and CSV, exact in JSON', async () => {
    const args = ['list', 'automations', '--filter', `id=${evil.id}`, '--columns', 'id,displayName', '--store', file];
    const table = await attest(args);
    expect(table.code, table.stderr).toBe(0);
    expect(raw.test(table.stdout)).toBe(false);
    expect(table.stdout).toContain('\\x1b]52;c;');
    const csv = await attest([...args, '-o', 'csv']);
    expect(raw.test(csv.stdout)).toBe(false);
    expect((parse(csv.stdout) as string[][])[1]![1]).toBe('Quokka \\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\\x1b[3J\\x1b[Hpayroll\\x9b2J');
    const json = await attest([...args, '-o', 'json']);
    expect((JSON.parse(json.stdout) as { rows: { title: string }[] }).rows[0]!.title).toBe(EVIL_NAME);
  });
});

describe('-o on show, runs, queue list and journal', () => {
  it('show: the raw JSON as the same value with raw C1 controls escaped; -o json exact; -o table and csv of its columns', async () => {
    const raw = JSON.stringify(tenant.data.automations.get(evil.id!));
    expect(raw).toContain('\u009b');
    const shown = await attest(['show', 'automations', evil.id!, '--store', file]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).not.toContain('\u009b');
    expect(shown.stdout).toContain('payroll\\u009b2J');
    expect(JSON.parse(shown.stdout)).toEqual(JSON.parse(raw));
    const json = await attest(['show', 'automations', evil.id!, '-o', 'json', '--store', file]);
    expect((JSON.parse(json.stdout) as { raw: string }).raw).toBe(raw);
    const table = await attest(['show', 'automations', evil.id!, '-o', 'table', '--store', file]);
    expect(table.stdout.split('\n')[0]).toMatch(/^FIELD +VALUE$/);
    expect(table.stdout).toMatch(/\ntriggerType +\S/);
    expect(table.stdout).toContain('Quokka \\x1b]52;c;');
    const csv = parse((await attest(['show', 'automations', evil.id!, '-o', 'csv', '--store', file])).stdout) as string[][];
    expect(csv).toHaveLength(2);
    expect(csv[1]![csv[0]!.indexOf('id')]).toBe(evil.id);
    const history = parse(
      (await attest(['show', 'automations', evil.id!, '--history', '-o', 'csv', '--store', file])).stdout,
    ) as string[][];
    expect(history).toEqual([
      ['run', 'at', 'change', 'fields'],
      ['1', expect.any(String), 'added', ''],
    ]);
  });

  it('runs -o csv: a row per collection with its object count; -o table as before', async () => {
    const csv = await attest(['runs', '-o', 'csv', '--store', file]);
    expect(csv.code, csv.stderr).toBe(0);
    const [header, ...rows] = parse(csv.stdout) as string[][];
    expect(header).toEqual(['collection', 'objects', 'asOfRun', 'dataAsOf', 'gathered', 'state']);
    expect(rows.find((r) => r[0] === 'automations')![1]).toBe(String(tenant.data.automations.size));
    expect(rows.find((r) => r[0] === 'scopes')![1]).toBe(String(tenant.data.scopes.size));
    const table = await attest(['runs', '--store', file]);
    expect(table.stdout).toMatch(/^RUN +FROM +STATUS/);
    expect(table.stdout.split('\n').find((l) => l.startsWith('scopes '))).toMatch(/full walk +complete as of run 1$/);
  });

  it('queue list and journal: table, csv (whole ids and digests), json; -o csv elsewhere in queue is refused', async () => {
    const scope = [...tenant.data.scopes.values()][0]!;
    const add = ['queue', 'add', 'create-scope', '--app', scope.appId!, '--resource-server', scope.xaaResourceServerId!];
    const added = await attest([...add, '--scope-value', 'files:listed', '-o', 'json', '--store', file]);
    expect(added.code, added.stderr).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    const table = await attest(['queue', 'list', '--store', file]);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +STATE +KIND +CHANGE/);
    expect(table.stdout).toContain(`${id.slice(0, 8)}  queued`);
    const csv = parse((await attest(['queue', 'list', '-o', 'csv', '--store', file])).stdout) as string[][];
    expect(csv[1]!.slice(0, 3)).toEqual([id, 'queued', 'create-scope']);
    const journal = parse((await attest(['journal', '-o', 'csv', '--store', file])).stdout) as string[][];
    expect(journal[0]).toEqual(['at', 'itemId', 'kind', 'event', 'outcome', 'httpStatus', 'requestDigest', 'target', 'change', 'answer']);
    expect(journal.slice(1).map((r) => r[1])).toContain(id);
    expect(journal[1]![6]).toMatch(/^[0-9a-f]{64}$/);
    const jsonJournal = await attest(['journal', '--json', '--store', file]);
    expect((JSON.parse(jsonJournal.stdout) as { itemId: string }[]).map((e) => e.itemId)).toContain(id);
    const refused = await attest([...add, '--scope-value', 'files:other', '-o', 'csv', '--store', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('-o csv is for queue list');
  });
});

describe('on a terminal', () => {
  /** Runs bin/attest.mjs on a pseudo-terminal of `cols` columns (util-linux script) and returns what the terminal got. */
  function onTerminal(args: string[], cols: number): string {
    const command = `stty cols ${cols} rows 50; exec "${process.execPath}" bin/attest.mjs ${args.map((a) => `'${a}'`).join(' ')}`;
    const run = spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '', COLUMNS: '' },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    return run.stdout;
  }

  it('prints a table cut to the terminal width with an ellipsis, tenant escapes shown escaped, matches bold', () => {
    const listed = onTerminal(['list', 'automations', '--store', file], 72);
    const lines = listed.split('\r\n').filter((l) => l !== '' && !l.startsWith('(') && !/^\d+ automations/.test(l));
    expect(listed).toContain('(left out to fit the terminal: ');
    expect(lines.length).toBe(tenant.data.automations.size + 1);
    // eslint-disable-next-line no-control-regex -- the SGR bold of matches is the only escape allowed
    const width = (l: string) => [...l.replace(/\u001b\[(1|22)m/g, '')].length;
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(72);
    expect(lines.some((l) => l.includes('…'))).toBe(true);

    const found = onTerminal(['search', 'Quokka', '--store', file], 200);
    expect(found).toContain('\\x1b]52;c;ZXZpbA==\\x07');
    expect(found).toContain('\u001b[1mQuokka\u001b[22m description \\x1b[2J\\x1b[3J\\x1b[Hend');
    for (const raw of ['\u001b]', '\u0007', '\u001b[2J', '\u001b[H', '\u009b']) expect(found).not.toContain(raw);
  });
});
