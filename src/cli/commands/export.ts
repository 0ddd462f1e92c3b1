import { resolve } from 'node:path';
import { appVersion } from '../../main/app/app-version';
import { defaultDataDir } from '../../main/app/data-dir';
import { refuseExisting } from '../../main/app/output-file';
import { osKeychain, signingKey, type SecretStore } from '../../main/app/secrets';
import { ExportCancelled, isReportKind, REPORT_KINDS, REPORTS, runExport, type ExportResult } from '../../main/app/tasks/export';
import { openWorkspace, StoreMissingError, type Workspace } from '../../main/app/workspace';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CliIO, type CommandModule } from '../io';
import { reviewExportUsage, runReviewExport } from './review';

const usage = `Usage: attest export REPORT --out FILE.xlsx [--force] [--as-of RUN] [--filter KEY=VALUE ...] [--sort COLUMN[:desc]]
                     [--text WORDS] [--from RUN --to RUN] [--campaign ID] [--sign] [--prepared-by NAME] [--connection NAME]
                     [--data-dir DIR] [--json]

Writes an Excel workbook from the local store (offline). Every workbook opens with a Cover sheet
(what it is for, report, filters, as of when, who prepared it, tenant, server, app version, how
to verify it), then the Evidence sheet: per collection how it was gathered, the data-as-of time,
completeness and row counts (sheet and store), and a SHA-256 of each sheet's canonical content
(\`attest verify FILE\` recomputes them); the data sheets; and a Dictionary of every column.

Reports:
${REPORT_KINDS.map((k) => `  ${k.padEnd(14)} ${REPORTS[k].title}`).join('\n')}
  review         A review worksheet for a reviewer to mark Keep or Revoke (\`attest export review --help\`)

  --out FILE.xlsx      where to write it; a file already there is refused (exit 2, nothing written)
  --force              overwrite a file already at --out
  --as-of RUN          the snapshot of a completed sync run (see \`attest runs\`)
  --filter KEY=VALUE   a column of the collection (state, classification, enabled, app, id, ...);
                       repeat a key for any of several values; COLLECTION.KEY=VALUE aims at one
                       collection of the evidence report
  --sort COLUMN[:desc] the order of the rows (as \`attest list --sort\`; default: by id);
                       COLLECTION.COLUMN aims at one collection of the evidence report
  --text WORDS         only objects whose text holds every word (as a list's filter box, or a
                       search's query)
  (The filters, sort and text are the report's parameters: the Cover states them.)
  --from/--to RUN      the runs a diff compares (default: the two latest completed full syncs)
  --campaign ID        certification: only this campaign's reviewed items (default: every campaign)
  --prepared-by NAME   who prepared the workbook, as the cover names them (default: the OS
                       account's full name where the system knows it, with the login name)
  --sign               sign the workbook with this machine's signing key (Ed25519, kept in the
                       OS keychain, created on first use; \`attest key\` prints its fingerprint),
                       so \`attest verify --key FINGERPRINT\` can tell who exported it. Unsigned,
                       the hashes show the cells are unchanged since export, not who exported them.

Exit 0: written. Exit 1: not written (the cause and the path are named; nothing is left behind).
Exit 2: a bad command line or report parameters (a filter, a run), a file already at --out without
--force. Exit 3: --sign without a keychain.

${reviewExportUsage}`;

export { appVersion };

const runArg = (value: string | undefined, flag: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} takes a sync run id, not '${value}'`);
  return n;
};

const preparedByArg = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  const name = value.trim();
  // eslint-disable-next-line no-control-regex
  if (!name || name.length > 200 || /[\x00-\x1f\x7f]/.test(name))
    throw new UsageError('--prepared-by takes a name of 1 to 200 characters, without control characters');
  return name;
};

/** Prints the one-screen summary of an export on stderr. */
export function printExportSummary(io: CliIO, result: ExportResult): void {
  const lines = [`wrote ${result.file} (${(result.bytes / 1024).toFixed(0)} KiB, ${result.ms} ms)`];
  const width = Math.max(18, ...result.sheets.map((s) => s.name.length));
  for (const s of result.sheets)
    lines.push(`  ${s.name.padEnd(width)} ${String(s.rows).padStart(8)} rows  sha256 ${s.sha256.slice(0, 16)}…`);
  for (const c of result.collections) {
    if (!c.complete) lines.push(`  ! ${c.collection}: NOT complete (${c.note})`);
  }
  lines.push(`  overall sha256 ${result.overallSha256}`);
  lines.push(
    result.signedBy
      ? `  signed by key ${result.signedBy}`
      : '  not signed (--sign): the hashes show the cells are unchanged since export, not who exported them',
  );
  io.err(lines.join('\n'));
}

export interface ExportDeps {
  /** Where the signing key lives (default: the OS keychain). */
  secrets?: () => SecretStore;
}

export function exportCommand(deps: ExportDeps = {}): CommandModule {
  return {
    summary: 'write a verifiable Excel report from the local store',
    usage,
    async run(argv, io) {
      if (argv[0] === 'review') return runReviewExport(argv.slice(1), io, deps.secrets);
      const { values, positionals } = parseCommandArgs(
        argv,
        {
          out: { type: 'string', short: 'o' },
          force: { type: 'boolean', default: false },
          'as-of': { type: 'string' },
          filter: { type: 'string', multiple: true },
          sort: { type: 'string' },
          text: { type: 'string' },
          from: { type: 'string' },
          to: { type: 'string' },
          campaign: { type: 'string' },
          connection: { type: 'string' },
          'data-dir': { type: 'string' },
          sign: { type: 'boolean', default: false },
          'prepared-by': { type: 'string' },
          json: { type: 'boolean', default: false },
        },
        true,
      );
      const kind = positionals[0];
      if (!kind || positionals.length > 1) throw new UsageError('give one REPORT');
      if (!isReportKind(kind)) throw new UsageError(`unknown report '${kind}' (one of: ${REPORT_KINDS.join(', ')})`);
      if (!values.out) throw new UsageError('give --out FILE.xlsx');
      if (!/\.xlsx$/i.test(values.out)) throw new UsageError('--out must name an .xlsx file');
      const out = resolve(values.out);
      if (!values.force) refuseExisting(out);
      const dataDir = resolve(values['data-dir'] ?? io.env.ATTEST_DATA_DIR ?? defaultDataDir(io.env));
      // The key first: without a keychain nothing is opened or written.
      const signer = values.sign ? await signingKey((deps.secrets ?? (() => osKeychain()))()) : undefined;
      let workspace: Workspace;
      try {
        workspace = await openWorkspace(dataDir, values.connection, { existing: true });
      } catch (error) {
        if (!(error instanceof StoreMissingError)) throw error;
        io.err(`attest export: nothing synced yet for '${error.connectionName}'; run \`attest sync\` first.`);
        return EXIT.other;
      }
      const controller = new AbortController();
      const cancel = () => controller.abort();
      process.once('SIGINT', cancel);
      process.once('SIGTERM', cancel);
      let lastSheet = '';
      try {
        const result = await runExport(workspace, {
          kind,
          out,
          appVersion: appVersion(),
          asOfRun: runArg(values['as-of'], '--as-of'),
          fromRun: runArg(values.from, '--from'),
          toRun: runArg(values.to, '--to'),
          campaign: values.campaign,
          filters: values.filter ?? [],
          sort: values.sort,
          text: values.text,
          preparedBy: preparedByArg(values['prepared-by']),
          signer,
          signal: controller.signal,
          onProgress: (p) => {
            if (!io.isTTY || p.phase !== 'sheet' || p.sheet === null) return;
            if (p.sheet !== lastSheet || p.rows % 100_000 === 0) {
              lastSheet = p.sheet;
              io.err(`  [${p.sheetIndex + 1}/${p.sheetCount}] ${p.sheet}: ${p.rows}${p.total !== null ? `/${p.total}` : ''} rows`);
            }
          },
        });
        if (values.json) io.out(JSON.stringify(result, null, 2));
        printExportSummary(io, result);
        return EXIT.ok;
      } catch (error) {
        if (error instanceof ExportCancelled) {
          io.err(`attest export: cancelled; nothing was written to ${out}`);
          return EXIT.other;
        }
        throw error;
      } finally {
        process.off('SIGINT', cancel);
        process.off('SIGTERM', cancel);
        workspace.close();
      }
    },
  };
}

export default exportCommand();
