/**
 * Export bench: the `scopes` report of 1,000,000 stored objects (read from SQLite, hashed,
 * streamed into the workbook with its cover, Evidence and Dictionary sheets, temp file + rename)
 * against a bare exceljs streaming write of the same cell values in its two sheets of a row per
 * object (Scopes, and Raw API values: the JSON as stored); the peak RSS of the export at 1,000,000 rows against 100,000;
 * and `verify` of the large workbook (every check and hash) against its export, with its peak RSS.
 * Each measurement runs in its own child process, so each peak RSS is clean.
 */
import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collection } from '../../src/main/collections';
import { RAW_SHEET } from '../../src/main/reports/catalog';
import { enumWords } from '../../src/main/reports/columns';
import { XlsxReader } from '../../src/main/reports/xlsx-reader';

const SMALL = Number(process.env.ATTEST_BENCH_EXPORT_SMALL ?? 100_000);
const LARGE = Number(process.env.ATTEST_BENCH_EXPORT_LARGE ?? 1_000_000);

const STATES = [
  'XAA_SCOPE_STATE_PENDING_REVIEW',
  'XAA_SCOPE_STATE_ENABLED',
  'XAA_SCOPE_STATE_DISABLED',
  'XAA_SCOPE_STATE_REMOVED',
  'XAA_SCOPE_STATE_FROM_THE_FUTURE',
];
const CLASSES = [
  'XAA_SCOPE_CLASSIFICATION_READ',
  'XAA_SCOPE_CLASSIFICATION_WRITE',
  'XAA_SCOPE_CLASSIFICATION_DESTRUCTIVE',
  'XAA_SCOPE_CLASSIFICATION_SENSITIVE',
];
const BASE = Date.UTC(2024, 0, 1);

/** The i-th scope of the bench tenant, as the API would send it. */
function scope(i: number): Record<string, unknown> {
  const created = new Date(BASE + i * 61_003).toISOString();
  return {
    id: `scope-${String(i).padStart(8, '0')}`,
    appId: `app-${i % 97}`,
    xaaResourceServerId: `rs-${i % 13}`,
    scopeValue: `api:resource-${i % 1000}:action-${i}`,
    displayName: `Scope ${i} of resource ${i % 1000}`,
    description: 'Grants access to one resource action.',
    classification: CLASSES[i % CLASSES.length],
    state: STATES[i % STATES.length],
    source: i % 2 ? 'XAA_SCOPE_SOURCE_DISCOVERED' : 'XAA_SCOPE_SOURCE_ADMIN_DECLARED',
    appEntitlementId: `ent-${i}`,
    createdAt: created,
    updatedAt: new Date(BASE + i * 61_003 + 86_400_000).toISOString(),
    lastDiscoveredAt: i % 3 ? created : null,
  };
}

/** The report's label of an enum member of scopes (`state`, `classification`, `source`), as the Scopes sheet writes it. */
const labels = new Map<string, string | null>();
function label(member: string, value: unknown): string | null {
  const key = `${member}\u0000${String(value)}`;
  if (!labels.has(key))
    labels.set(
      key,
      enumWords(
        collection('scopes').columns.find((c) => c.name === member)!,
        value,
      ),
    );
  return labels.get(key)!;
}

const date = (v: unknown) => (typeof v === 'string' ? new Date(v) : null);

/** The Scopes row the report writes for that object: ids, enum labels, the app and entitlement names the store does not hold, dates in UTC. */
function scopesRow(s: Record<string, unknown>): unknown[] {
  return [
    s.id,
    s.scopeValue,
    s.displayName,
    label('state', s.state),
    label('classification', s.classification),
    label('source', s.source),
    s.appId,
    null,
    s.xaaResourceServerId,
    s.appEntitlementId,
    null,
    date(s.createdAt),
    date(s.updatedAt),
    date(s.lastDiscoveredAt),
    s.description,
    null,
  ];
}

/** The Raw API values row the report writes for that object: the JSON as stored. */
function rawRow(s: Record<string, unknown>): unknown[] {
  const json = JSON.stringify(s);
  return ['Cross-app scopes', s.id, null, json, json.length];
}

/**
 * The export's data sheets that hold a row per object, in its order, with the headers and cells
 * the bare write gives them; the bench checks these headers against the export's own.
 */
const DATA_SHEETS: { name: string; headers: string[]; row: (s: Record<string, unknown>) => unknown[] }[] = [
  {
    name: 'Scopes',
    headers: [
      'ID',
      'Scope',
      'Name',
      'State',
      'Classification',
      'Source',
      'App ID',
      'App',
      'Resource server',
      'Entitlement ID',
      'Entitlement',
      'Created (UTC)',
      'Updated (UTC)',
      'Last discovered (UTC)',
      'Description',
      'Deleted (UTC)',
    ],
    row: scopesRow,
  },
  { name: RAW_SHEET, headers: ['Collection', 'ID', 'Part', 'JSON as the API sent it', 'Characters'], row: rawRow },
];

/** Fails when the export's data sheets no longer have the headers the bare write mirrors. */
async function checkMirrored(file: string): Promise<void> {
  const reader = await XlsxReader.open(file);
  for (const { name, headers } of DATA_SHEETS) {
    const sheet = reader.sheets.find((s) => s.name === name);
    if (!sheet) throw new Error(`the export has no '${name}' sheet: the bare write no longer mirrors it`);
    for await (const row of reader.rows(sheet)) {
      if (JSON.stringify(row.cells) !== JSON.stringify(headers))
        throw new Error(`the export's '${name}' headers are ${JSON.stringify(row.cells)}: the bare write no longer mirrors them`);
      break;
    }
  }
}

async function bareWrite(n: number, out: string): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: out, useSharedStrings: false, useStyles: true });
  // The sheets in the export's order: each is streamed whole before the next begins.
  for (const { name, headers, row } of DATA_SHEETS) {
    const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = headers.map((h, i) => ({ key: `c${i}`, width: 20, style: h.endsWith('(UTC)') ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : {} }));
    ws.addRow(headers).commit();
    for (let i = 0; i < n; i += 1) {
      ws.addRow(row(scope(i))).commit();
      // the streaming writer needs the event loop to drain its zip stream
      if (i % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    ws.commit();
  }
  await wb.commit();
}

async function child(): Promise<void> {
  const [mode, count, storeFile, out] = JSON.parse(process.env.ATTEST_BENCH_EXPORT_CHILD ?? '[]') as [string, number, string, string];
  const started = performance.now();
  let rows = count;
  if (mode === 'bare') await bareWrite(count, out);
  else if (mode === 'verify') {
    const { verifyWorkbook } = await import('../../src/main/reports');
    const result = await verifyWorkbook(out);
    if (result.status !== 'intact') throw new Error(`verify found the bench workbook ${result.status}: ${result.reason}`);
    rows = Math.min(...DATA_SHEETS.map(({ name }) => result.sheets.find((s) => s.name === name)?.actualRows ?? 0));
  } else {
    const { openStore } = await import('../../src/main/store/db');
    const { exportReport } = await import('../../src/main/reports');
    const store = openStore(storeFile, { readonly: true });
    const result = await exportReport({
      kind: 'scopes',
      out,
      store,
      connection: { name: 'bench', tenantHost: 'bench.example.test' },
      appVersion: 'bench',
    });
    rows = Math.min(...DATA_SHEETS.map(({ name }) => result.sheets.find((s) => s.name === name)?.rows ?? 0));
    store.close();
  }
  const ms = performance.now() - started;
  process.stdout.write(`${JSON.stringify({ ms, rows, maxRssMb: process.resourceUsage().maxRSS / 1024, bytes: statSync(out).size })}\n`);
}

interface Measure {
  ms: number;
  rows: number;
  maxRssMb: number;
  bytes: number;
}

function measure(mode: 'bare' | 'export' | 'verify', count: number, storeFile: string, out: string, keep = false): Measure {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--import', 'tsx', self], {
    env: { ...process.env, ATTEST_BENCH_EXPORT_CHILD: JSON.stringify([mode, count, storeFile, out]) },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`bench child ${mode} ${count} failed: ${run.stderr}`);
  if (!keep) rmSync(out, { force: true });
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Measure;
}

export async function benchExport(): Promise<Record<string, number | string>> {
  const { openStore } = await import('../../src/main/store/db');
  const { storeRun } = await import('../helpers/report-fixtures');
  const dir = mkdtempSync(join(tmpdir(), 'attest-bench-export-'));
  try {
    const stores: Record<number, string> = {};
    let setupMs = 0;
    for (const n of [SMALL, LARGE]) {
      const t = performance.now();
      const file = join(dir, `scopes-${n}.sqlite`);
      const store = openStore(file);
      storeRun(
        store,
        {
          scopes: (function* gen() {
            for (let i = 0; i < n; i += 1) yield scope(i);
          })(),
        },
        10_000,
      );
      store.db.pragma('wal_checkpoint(TRUNCATE)');
      store.close();
      stores[n] = file;
      setupMs += performance.now() - t;
    }
    const out = (name: string) => join(dir, `${name}.xlsx`);
    // side by side, alternating, so both see the same machine load
    const bareLarge = measure('bare', LARGE, '', out('bare-large'));
    const exportLarge = measure('export', LARGE, stores[LARGE]!, out('export-large'), true);
    const verifyLarge = measure('verify', LARGE, '', out('export-large'));
    const exportSmall = measure('export', SMALL, stores[SMALL]!, out('export-small'), true);
    await checkMirrored(out('export-small'));
    const bareSmall = measure('bare', SMALL, '', out('bare-small'));
    if (exportLarge.rows !== LARGE || exportSmall.rows !== SMALL || verifyLarge.rows !== LARGE)
      throw new Error(
        `a wrong row count (the fewest of a data sheet): exported ${exportLarge.rows} of ${LARGE} and ${exportSmall.rows} of ${SMALL}, verified ${verifyLarge.rows} of ${LARGE}`,
      );
    return {
      rows_large: LARGE,
      rows_small: SMALL,
      store_setup_s: setupMs / 1000,
      bare_exceljs_large_s: bareLarge.ms / 1000,
      export_large_s: exportLarge.ms / 1000,
      'time_ratio_export/bare (target <= 1.3)': exportLarge.ms / bareLarge.ms,
      export_rows_per_s: LARGE / (exportLarge.ms / 1000),
      verify_large_s: verifyLarge.ms / 1000,
      'time_ratio_verify/export': verifyLarge.ms / exportLarge.ms,
      verify_peak_rss_large_mb: verifyLarge.maxRssMb,
      export_small_s: exportSmall.ms / 1000,
      bare_exceljs_small_s: bareSmall.ms / 1000,
      export_peak_rss_large_mb: exportLarge.maxRssMb,
      export_peak_rss_small_mb: exportSmall.maxRssMb,
      'rss_ratio_large/small (target <= 1.5)': exportLarge.maxRssMb / exportSmall.maxRssMb,
      bare_peak_rss_large_mb: bareLarge.maxRssMb,
      bare_peak_rss_small_mb: bareSmall.maxRssMb,
      export_file_large_mb: exportLarge.bytes / 1024 / 1024,
      bare_file_large_mb: bareLarge.bytes / 1024 / 1024,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.ATTEST_BENCH_EXPORT_CHILD) {
  child().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
