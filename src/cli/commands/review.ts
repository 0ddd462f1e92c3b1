import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { appVersion } from '../../main/app/app-version';
import { checkInputFile } from '../../main/app/input-files';
import { refuseExisting } from '../../main/app/output-file';
import { exportReviewWorksheet, importReviewWorksheet, DECISIONS, type ReviewImportResult } from '../../main/app/reviews';
import { osKeychain, signingKey, type SecretStore } from '../../main/app/secrets';
import { READ_LIMITS } from '../../main/app/tasks/verify';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CliIO, type CommandModule } from '../io';
import { openForReading, STORE_OPTIONS, STORE_USAGE } from './store-option';

export const reviewExportUsage = `Usage: attest export review (--entitlement ID... | --app ID... | --campaign ID) --out FILE.xlsx
                            [--reviewer NAME] [--as-of RUN] [--sign] [--force] [--store FILE | --connection NAME]

Writes a review worksheet (offline): a Cover (scope, as-of run, reviewer, instructions, the
worksheet's SHA-256) and a Review sheet, one row per membership in scope (subject's name and
email, app, entitlement, since, how granted, removable or why not), with a Decision column
(${DECISIONS.join(' / ')}, an Excel list) and a Comment column, the only cells left unlocked (the
sheets are protected without a password, as guidance). Every other cell is evidence: the store
keeps it, and \`attest review import\` names any cell changed since and refuses the worksheet.

  --entitlement ID   the members of this entitlement (repeat for several)
  --app ID           the memberships of this app (repeat for several)
  --campaign ID      what the campaign reviews: its single app, or the entitlements it names
  --reviewer NAME    who reviews it, as the Cover and every decision record it
  --as-of RUN        the memberships as of a completed sync run
  --sign             sign the worksheet's SHA-256 with this machine's signing key (attest key)
${STORE_USAGE}

Exit 0: written. Exit 1: not written. Exit 2: a bad command line, an unknown scope, no membership.`;

const usage = `Usage: attest review import FILE.xlsx [--dry-run] [--store FILE | --connection NAME] [--json]

Reads a returned review worksheet (offline) with the reader of \`attest verify\` and compares every
cell but Decision and Comment with what was exported (a re-save by Excel or LibreOffice is fine):
a changed cell, a row added or removed, a Decision other than ${DECISIONS.join(' or ')}, or anything the
reader refuses (a formula, a hidden cell...) is named and the worksheet refused; nothing is queued.
Else each Revoke queues one membership removal, all in one batch named after the worksheet
(\`attest queue batches\`; the comment kept with the item), skipping and naming rows that cannot be
removed, are gone already or are queued already; every decision, Keep included, is recorded with
the reviewer and the worksheet's hash (the "Review decisions" sheet of \`attest export evidence\`
and \`attest export review-decisions\`). \`attest queue send\` sends the removals.

  --dry-run   check and say what would be queued; queue and record nothing
${STORE_USAGE}
  --json      the result on stdout

Exit 0: imported (or would be). Exit 1: refused (each reason named). Exit 2: a bad command line.`;

const nameArg = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  const name = value.trim();
  // eslint-disable-next-line no-control-regex
  if (!name || name.length > 200 || /[\x00-\x1f\x7f]/.test(name))
    throw new UsageError('--reviewer takes a name of 1 to 200 characters, without control characters');
  return name;
};

/** `attest export review ...` (the export command hands it over). */
export async function runReviewExport(argv: string[], io: CliIO, secrets?: () => SecretStore): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      ...STORE_OPTIONS,
      out: { type: 'string', short: 'o' },
      force: { type: 'boolean', default: false },
      entitlement: { type: 'string', multiple: true },
      app: { type: 'string', multiple: true },
      campaign: { type: 'string' },
      reviewer: { type: 'string' },
      'as-of': { type: 'string' },
      sign: { type: 'boolean', default: false },
    },
    true,
  );
  if (positionals.length)
    throw new UsageError(`unexpected '${positionals[0]}': the scope is given with --entitlement, --app or --campaign`);
  const scopes = [values.entitlement?.length, values.app?.length, values.campaign].filter(Boolean).length;
  if (scopes !== 1) throw new UsageError('give one scope: --entitlement ID..., --app ID... or --campaign ID');
  if (!values.out) throw new UsageError('give --out FILE.xlsx');
  if (!/\.xlsx$/i.test(values.out)) throw new UsageError('--out must name an .xlsx file');
  const out = resolve(values.out);
  if (!values.force) refuseExisting(out);
  let asOfRun: number | undefined;
  if (values['as-of'] !== undefined) {
    asOfRun = Number(values['as-of']);
    if (!Number.isInteger(asOfRun) || asOfRun <= 0) throw new UsageError(`--as-of takes a sync run id, not '${values['as-of']}'`);
  }
  const reviewer = nameArg(values.reviewer);
  const signer = values.sign ? await signingKey((secrets ?? (() => osKeychain()))()) : undefined;
  const workspace = await openForReading(values, io);
  try {
    const result = await exportReviewWorksheet(workspace, {
      out,
      scope: { entitlements: values.entitlement, apps: values.app, campaign: values.campaign },
      reviewer,
      asOfRun,
      appVersion: appVersion(),
      signer,
    });
    if (values.json) io.out(JSON.stringify(result, null, 2));
    io.err(
      [
        `wrote ${result.file}: review worksheet of ${result.scope}, ${result.rows} memberships${reviewer ? `, for ${reviewer}` : ''}`,
        `  worksheet SHA-256 ${result.sha256}`,
        result.signedBy ? `  signed by key ${result.signedBy}` : '  not signed (--sign)',
      ].join('\n'),
    );
    return EXIT.ok;
  } finally {
    workspace.close();
  }
}

/** What an import did, or why it refused the worksheet, in lines for stderr. */
function importLines(r: ReviewImportResult): string[] {
  const name = r.worksheet?.name ?? r.file;
  if (r.refused.length) return [`REFUSED: ${name}: nothing was queued or recorded`, ...r.refused.map((reason) => `  - ${reason}`)];
  const revokes = r.decisions.filter((d) => d.decision === 'Revoke');
  const keeps = r.decisions.length - revokes.length;
  const skipped = revokes.filter((d) => d.skipped);
  const queued = revokes.length - skipped.length;
  const lines = [
    `${r.dryRun ? 'dry run: ' : ''}${name} (reviewer ${r.worksheet?.reviewer ?? 'not named'}): ${r.decisions.length} decisions, ` +
      `${keeps} keep, ${revokes.length} revoke; ${queued} removal${queued === 1 ? '' : 's'} ${r.dryRun ? 'would be queued' : 'queued'}` +
      (r.batch ? ` as batch ${r.batch.id} '${r.batch.name}'` : ''),
  ];
  for (const d of skipped) lines.push(`  row ${d.row} (${d.subject ?? d.appUserId}): not queued: ${d.skipped}`);
  if (r.undecided.length) lines.push(`  ${r.undecided.length} rows without a decision (rows ${r.undecided.join(', ')})`);
  lines.push(`  worksheet SHA-256 ${r.worksheet?.sha256 ?? ''}; file SHA-256 ${r.fileSha256}`);
  return lines;
}

const command: CommandModule = {
  summary: 'import the decisions of a returned review worksheet (Revokes queued as removals)',
  usage,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'import') throw new UsageError(sub ? `unknown review command '${sub}' (import)` : 'give a review command: import');
    const { values, positionals } = parseCommandArgs(rest, { ...STORE_OPTIONS, 'dry-run': { type: 'boolean', default: false } }, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one FILE.xlsx');
    const file = resolve(positionals[0]!);
    if (!existsSync(file)) throw new UsageError(`no file ${file}`);
    checkInputFile(file, 'the worksheet', READ_LIMITS.fileBytes);
    const workspace = await openForReading(values, io);
    try {
      const result = await importReviewWorksheet(workspace, file, { dryRun: values['dry-run'] });
      if (values.json) io.out(JSON.stringify(result, null, 2));
      io.err(importLines(result).join('\n'));
      return result.refused.length ? EXIT.other : EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
