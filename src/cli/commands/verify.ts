import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { changedSheets, verifyWorkbook } from '../../main/reports';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';

const usage = `Usage: attest verify FILE.xlsx [--json]

Recomputes the SHA-256 of every sheet of an Attest workbook from its cells (and of the Evidence
sheet's manifest) and compares them with the hashes its Evidence sheet recorded at export.
Exit 0: intact. Exit 1: altered (the changed sheets are named). Exit 2: not an Attest workbook.
The hashes prove the cells are those exported; they are not a signature of who exported them.`;

const command: CommandModule = {
  summary: 'check that an exported workbook was not edited since export',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean', default: false } }, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one FILE.xlsx');
    const file = resolve(positionals[0]!);
    if (!existsSync(file)) {
      io.err(`attest verify: no file ${file}`);
      return EXIT.usage;
    }
    const result = await verifyWorkbook(file);
    if (values.json) io.out(JSON.stringify(result, null, 2));
    if (result.status === 'not-attest') {
      io.err(`attest verify: ${file} is not an Attest workbook (${result.reason ?? 'no Evidence sheet'})`);
      return EXIT.usage;
    }
    const what = [result.manifest.Report, result.manifest.Tenant, result.manifest['Generated at (ISO)']].filter(Boolean).join(', ');
    if (result.status === 'intact') {
      const rows = result.sheets.filter((s) => s.name !== 'Evidence (manifest)').map((s) => `${s.name} (${s.actualRows ?? 0} rows)`);
      io.err(
        `intact: ${file}${what ? ` [${what}]` : ''}\n  every hash matches: ${rows.join(', ') || 'no data sheet'}\n  overall SHA-256 ${result.actualOverall}`,
      );
      return EXIT.ok;
    }
    const lines = [`ALTERED: ${file}${what ? ` [${what}]` : ''}`];
    if (result.reason) lines.push(`  ${result.reason}`);
    for (const s of result.sheets) {
      if (s.status === 'intact') continue;
      const name = s.name === 'Evidence (manifest)' ? 'Evidence (manifest rows)' : s.name;
      if (s.status === 'missing') lines.push(`  sheet '${name}': missing`);
      else if (s.status === 'unexpected') lines.push(`  sheet '${name}': added after export (not covered by the evidence)`);
      else
        lines.push(
          `  sheet '${name}': content changed (expected ${s.expectedSha256?.slice(0, 16)}…, found ${s.actualSha256?.slice(0, 16)}…)`,
        );
    }
    const changed = changedSheets(result);
    if (changed.length) lines.push(`  changed: ${changed.join(', ')}`);
    io.err(lines.join('\n'));
    return EXIT.other;
  },
};

export default command;
