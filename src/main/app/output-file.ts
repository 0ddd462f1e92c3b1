/**
 * Files the user names as output (a report workbook, a public key): one that is there already is
 * refused unless the user asked to overwrite it, before anything is written. The app's save dialog
 * asks that itself; the CLI's `--force` says it.
 */
import { lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CoreError } from '../errors';

/** An output file that is there already, refused: nothing was written. Exit 2 in the CLI. */
export class OutputFileExistsError extends CoreError {
  override name = 'OutputFileExistsError';
  constructor(readonly file: string) {
    super('bad_request', `${file} exists already: nothing was written (give --force to overwrite it)`);
  }
}

/** Throws OutputFileExistsError when anything is at `file` (a file, a folder, a link, even a broken one). */
export function refuseExisting(file: string): void {
  if (lstatSync(file, { throwIfNoEntry: false })) throw new OutputFileExistsError(file);
}

/**
 * Writes a file the user named, whole or not at all: into a temporary file beside it, then renamed
 * over it, so a reader never sees half of it and a failure leaves what was there. Refused when
 * something is there already, unless `force`.
 */
export function writeOutputFile(file: string, data: string | Uint8Array, opts: { force?: boolean } = {}): void {
  if (!opts.force) refuseExisting(file);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, data, { flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
