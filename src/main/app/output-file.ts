/**
 * Files the user names as output (a report workbook, a public key): one that is there already is
 * refused unless the user asked to overwrite it, before anything is written. The app's save dialog
 * asks that itself; the CLI's `--force` says it.
 */
import { lstatSync } from 'node:fs';
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
