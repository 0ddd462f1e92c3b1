/**
 * Reading a file the user names as input (a JSON change, a CSV to queue, a workbook to verify):
 * a regular file within its size limit, opened without blocking. The checks live below the
 * application layer because the workbook verifier reads through them too; the fronts read here.
 */
export { checkInputFile, InputFileError, readInputFile } from '../input-file';
