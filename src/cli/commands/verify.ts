import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkInputFile } from '../../main/app/input-files';
import {
  changedSheets,
  fingerprintFromKeyText,
  normaliseFingerprint,
  READ_LIMITS,
  type VerifyResult,
  CANONICAL_FORM,
  propertiesLine,
  verifyWithStore,
} from '../../main/app/tasks/verify';
import { defaultDataDir } from '../../main/app/data-dir';
import { isReviewWorksheet, verifyReviewWorksheet } from '../../main/app/reviews';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';

const usage = `Usage: attest verify FILE.xlsx [--key FINGERPRINT|FILE] [--data-dir DIR] [--json]

Recomputes the SHA-256 of every sheet of an Attest workbook from its cells (the Evidence sheet's
own content too) and of its document properties, and compares them with the hashes its Evidence
sheet recorded at export; refuses what Attest never writes (formulas, hidden sheets, rows or
columns, two sheets of one name, extra parts or relationships), what no one can see (a white font,
a row too low to read, a format that shows nothing...), and what spreadsheet programs could read
two ways; and checks the signature of a workbook exported with --sign. A workbook another program
re-saved with nothing shown changed is "data intact". Where a sheet changed and the store that
exported it is here (the connection the workbook names), each changed cell is named with its old
and new value.

A review worksheet (\`attest export review\`) is verified on its own terms: every cell but its
Decision and Comment columns, its Decision list and its protection hash as its Cover recorded, and
its signature is checked; a decided worksheet is intact.

  --key KEY       the exporter's signing key: its fingerprint (SHA256:..., as \`attest key\` prints
                  it) or a file holding its public key (PEM) or fingerprint; the workbook must be
                  signed by that key
  --data-dir DIR  where connections are recorded, to find the store that exported the workbook
                  (default: the OS app-data folder; ATTEST_DATA_DIR)
  --json          the whole result on stdout

Exit 0: intact (and signed by KEY when given). Exit 1: altered, foreign content, a signature that
does not match, or not signed by KEY (each is named). Exit 2: not an Attest workbook, unreadable or
beyond what verify reads, or a bad command line. Without a signature checked with --key, the hashes
prove the cells are those exported, not who exported them.`;

/** Largest key file read: a PEM public key is under 200 bytes. */
const MAX_KEY_FILE = 64 * 1024;

/** The fingerprint a --key value names: a fingerprint, or a file holding a public key (PEM) or a fingerprint. */
async function keyFingerprint(value: string): Promise<string> {
  const direct = normaliseFingerprint(value);
  if (direct) return direct;
  const file = resolve(value);
  const info = await stat(file).catch(() => null);
  if (!info) throw new UsageError(`--key takes a fingerprint (SHA256:<64 hex digits>) or a key file; there is no file ${file}`);
  if (!info.isFile() || info.size > MAX_KEY_FILE)
    throw new UsageError(`--key ${file} is not a key file (an Ed25519 public key in PEM, or a fingerprint)`);
  const fingerprint = fingerprintFromKeyText(await readFile(file, 'utf8'));
  if (!fingerprint) throw new UsageError(`--key ${file} holds neither an Ed25519 public key (PEM) nor a fingerprint`);
  return fingerprint;
}

/** Who re-saved an intact workbook, as the file says. */
function resavedLine(stamp: NonNullable<VerifyResult['resaved']>): string {
  const by = [stamp.modifiedBy && `last modified by ${stamp.modifiedBy}`, stamp.modified && `at ${stamp.modified}`]
    .filter(Boolean)
    .join(' ');
  return (
    `re-saved by another program after export (the file names ${stamp.application ?? 'no program'}${by ? `; ${by}` : ''}): ` +
    'every cell, sheet and document property a reader shows is as exported'
  );
}

const shownValue = (json: string | null): string => (json === null ? '(empty)' : json);

/** One located change in words: `Scopes!E15: "Regulated" → "Read"`, or a row added or removed. */
function changeLine(change: VerifyResult['changes'][number]): string {
  if (change.kind === 'moved') return `'${change.sheet}' ${change.where}: moved to ${change.new ?? '?'} (the cells unchanged)`;
  const at = change.where.startsWith('row') || change.where.startsWith('a row') ? ` ${change.where}` : `!${change.where}`;
  if (change.kind === 'changed' && change.old === undefined) return `'${change.sheet}'${at}: changed, now ${shownValue(change.new)}`;
  if (change.kind === 'changed') return `'${change.sheet}'${at}: ${shownValue(change.old ?? null)} → ${shownValue(change.new)}`;
  if (change.kind === 'added') return `'${change.sheet}'${at}: added (${change.new ?? ''})`;
  return `'${change.sheet}'${at}: removed${change.old ? ` (it held ${change.old})` : ''}`;
}

/** What verify found, in the lines it prints on stderr. */
function report(result: VerifyResult): string[] {
  const what = [result.manifest.Report, result.manifest.Tenant, result.manifest['Generated at (ISO)']].filter(Boolean).join(', ');
  const lines: string[] = [];
  if (result.status === 'intact') {
    const rows = result.sheets
      .filter((s) => s.name !== 'Evidence' && s.name !== 'Evidence (manifest)')
      .map((s) => `${s.name} (${s.actualRows ?? 0} rows)`);
    const verdict = result.resaved ? 'data intact' : 'intact';
    lines.push(`${result.ok ? verdict : 'NOT VERIFIED'}: ${result.file}${what ? ` [${what}]` : ''}`);
    if (result.resaved) lines.push(`  ${resavedLine(result.resaved)}`);
    const properties = result.form === CANONICAL_FORM ? ', the document properties' : '';
    lines.push(`  every hash matches: ${rows.join(', ') || 'no data sheet'}${properties}`, `  overall SHA-256 ${result.actualOverall}`);
  } else {
    lines.push(`ALTERED: ${result.file}${what ? ` [${what}]` : ''}`);
    if (result.reason) lines.push(`  ${result.reason}`);
    for (const problem of result.problems) lines.push(`  - ${problem}`);
    for (const s of result.sheets) {
      if (s.status === 'intact') continue;
      const name = s.name === 'Evidence (manifest)' ? 'Evidence (manifest rows)' : s.name;
      if (s.status === 'missing') lines.push(`  sheet '${name}': missing`);
      else if (s.status === 'unexpected') lines.push(`  sheet '${name}': added after export (not covered by the evidence)`);
      else if (!result.changes.some((c) => c.sheet === s.name))
        lines.push(
          `  sheet '${name}': content changed (expected ${s.expectedSha256?.slice(0, 16)}…, found ${s.actualSha256?.slice(0, 16)}…)`,
        );
    }
    lines.push(...result.changes.map((c) => `  ${changeLine(c)}`));
    if (result.located) lines.push(`  ${result.located}`);
    if (result.properties.status === 'altered' && result.form) lines.push(`  the document properties changed: ${propertiesLine(result)}`);
    const changed = changedSheets(result);
    if (changed.length) lines.push(`  changed: ${changed.join(', ')}`);
  }
  for (const warning of result.warnings) lines.push(`  warning: ${warning}`);
  lines.push(`  ${result.notice}`);
  return lines;
}

const command: CommandModule = {
  summary: 'check that an exported workbook was not edited since export (and who signed it)',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      { key: { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean', default: false } },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give exactly one FILE.xlsx');
    const key = values.key === undefined ? null : await keyFingerprint(values.key);
    const file = resolve(positionals[0]!);
    if (!existsSync(file)) {
      io.err(`attest verify: no file ${file}`);
      return EXIT.usage;
    }
    // A folder, a device, a FIFO or a file over the limit: exit 2 before anything is read.
    checkInputFile(file, 'the workbook', READ_LIMITS.fileBytes);
    if (await isReviewWorksheet(file).catch(() => false)) {
      const review = await verifyReviewWorksheet(file, key);
      if (values.json) io.out(JSON.stringify(review, null, 2));
      const intact = review.status === 'intact';
      io.err(
        [
          `${intact ? 'intact' : 'ALTERED'}: ${file} [review worksheet; ${review.decided} decisions]`,
          ...review.problems.map((p) => `  - ${p}`),
          `  worksheet SHA-256 ${review.sha256} (Decision and Comment left out)${review.signedBy ? `; signed by key ${review.signedBy}` : ''}`,
          ...(intact ? [] : ['  `attest review import` names each cell changed, where the store that exported it is']),
        ].join('\n'),
      );
      return intact ? EXIT.ok : EXIT.other;
    }
    const result = await verifyWithStore(file, values['data-dir'] ?? defaultDataDir(io.env), { key });
    if (values.json) io.out(JSON.stringify(result, null, 2));
    if (result.status === 'not-attest') {
      io.err(`attest verify: ${file} is not an Attest workbook or cannot be read: ${result.reason ?? 'no Evidence sheet'}`);
      return EXIT.usage;
    }
    io.err(report(result).join('\n'));
    return result.ok ? EXIT.ok : EXIT.other;
  },
};

export default command;
