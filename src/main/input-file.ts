/**
 * Files the user names as input (a CSV to import, a JSON change, a workbook to verify): regular
 * files only, up to a size limit, opened without blocking (a FIFO never hangs the caller). A
 * device such as /dev/zero, a FIFO, a socket or a directory is refused by what it is; nothing of
 * the file's content ever appears in these errors.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { sizeText } from '../shared/sizes';
import { CoreError } from './errors';

/** A named input file that is not one Attest reads: missing, not a regular file, too large, unreadable. Exit 2 in the CLI. */
export class InputFileError extends CoreError {
  override name = 'InputFileError';
  constructor(message: string) {
    super('bad_request', message);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device (like /dev/zero)';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

function reason(error: unknown): string {
  switch ((error as { code?: unknown })?.code) {
    case 'ENOENT':
      return 'there is no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'EISDIR':
      return 'it is a folder';
    default:
      return `it cannot be read (${String((error as { code?: unknown })?.code ?? 'I/O error')})`;
  }
}

/** An open descriptor of a regular file within `maxBytes`, and its size; refused otherwise. The caller closes it. */
function openRegular(file: string, what: string, maxBytes: number): { fd: number; size: number } {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading with no writer would otherwise wait forever.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new InputFileError(`cannot read ${what} ${file}: ${reason(error)}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new InputFileError(`${what} ${file} is ${kindOf(stats)}, not a regular file`);
    if (stats.size > maxBytes)
      throw new InputFileError(`${what} ${file} is ${sizeText(stats.size)}, more than the ${sizeText(maxBytes)} allowed`);
    return { fd, size: stats.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Refuses (InputFileError) anything but a regular file of at most `maxBytes`; returns its size. */
export function checkInputFile(file: string, what: string, maxBytes: number): number {
  const { fd, size } = openRegular(file, what, maxBytes);
  closeSync(fd);
  return size;
}

/** The bytes of a regular file of at most `maxBytes` (a file that grows while it is read is refused). */
export function readInputFile(file: string, what: string, maxBytes: number): Buffer {
  const { fd, size } = openRegular(file, what, maxBytes);
  try {
    // One byte more than its size tells a file that grew meanwhile.
    const buffer = Buffer.allocUnsafe(size + 1);
    let length = 0;
    while (length < buffer.length) {
      let n: number;
      try {
        n = readSync(fd, buffer, length, buffer.length - length, null);
      } catch (error) {
        throw new InputFileError(`cannot read ${what} ${file}: ${reason(error)}`);
      }
      if (n === 0) return buffer.subarray(0, length);
      length += n;
    }
    throw new InputFileError(`${what} ${file} changed while it was read: read it again once it is written`);
  } finally {
    closeSync(fd);
  }
}
