/**
 * Files named as input (`queue import FILE.csv`, `queue add … --file CHANGE.json`, `verify FILE`):
 * regular files only, within a size limit, exit 2 otherwise, and no content of the file quoted in
 * what is printed. Devices, FIFOs and folders are refused by what they are, without reading.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, openSync, closeSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInputFile, InputFileError, readInputFile } from '../../src/main/input-file';
import { READ_LIMITS, verifyWorkbook } from '../../src/main/reports';
import { CSV_IMPORT_MAX_BYTES } from '../../src/shared/input-limits';
import { runCli, tempDir } from './sync.helpers';

let tmp: ReturnType<typeof tempDir>;
let store: string;
let fifo: string;
let folder: string;

/** A sparse file of `size` bytes: nothing is written, so a test can afford gigabytes. */
function sparse(file: string, size: number): string {
  const fd = openSync(file, 'w');
  ftruncateSync(fd, size);
  closeSync(fd);
  return file;
}

beforeAll(() => {
  tmp = tempDir('attest-input-files-');
  store = join(tmp.dir, 'store.sqlite');
  fifo = join(tmp.dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  folder = join(tmp.dir, 'a-folder');
  mkdirSync(folder);
});
afterAll(() => tmp?.remove());

const importCsv = (file: string) => runCli(['queue', 'import', file, '--kind', 'remove-membership', '--store', store]);
const addTemplate = (file: string) => runCli(['queue', 'add', 'update-template', '--template', 't1', '--file', file, '--store', store]);

/** Nothing but printable text and line ends: no byte of a hostile file reaches the terminal. */
const PRINTABLE = /^[\x20-\x7e\n\u2026]*$/;

describe('queue import FILE.csv', () => {
  it.each([
    ['/dev/zero', 'is a character device (like /dev/zero), not a regular file'],
    ['FIFO', 'is a named pipe (FIFO), not a regular file'],
    ['folder', 'is a folder, not a regular file'],
  ])('refuses %s with exit 2, without reading it', async (which, reason) => {
    const file = which === 'FIFO' ? fifo : which === 'folder' ? folder : which;
    const { code, err, out } = await importCsv(file);
    expect(code).toBe(2);
    expect(err).toContain(`the CSV file ${file} ${reason}`);
    expect(out).toBe('');
  });

  it('refuses a file over the limit (the same as the app’s) before reading it', async () => {
    const big = sparse(join(tmp.dir, 'big.csv'), CSV_IMPORT_MAX_BYTES + 1);
    const { code, err } = await importCsv(big);
    expect(code).toBe(2);
    expect(err).toContain(`the CSV file ${big} is 16.0 MiB, more than the 16 MiB allowed`);
  });

  it('a file of NUL bytes, or a broken quote around a secret, is refused with no content quoted', async () => {
    const zeros = join(tmp.dir, 'zeros.csv');
    writeFileSync(zeros, Buffer.alloc(100_000));
    const z = await importCsv(zeros);
    expect(z.code).toBe(2);
    expect(z.err).toContain('the first line must be a header naming the columns: app_id, app_entitlement_id, app_user_id');
    expect(z.err).toMatch(PRINTABLE);
    expect(z.err.length).toBeLessThan(2_000);

    const quoted = join(tmp.dir, 'quote.csv');
    writeFileSync(quoted, 'app_id,app_entitlement_id,app_user_id\n"hunter2"sekrit-value,x,y\n');
    const q = await importCsv(quoted);
    expect(q.code).toBe(2);
    expect(q.err).toContain(`${quoted}:2: file: the file is not valid CSV: a closing quote is followed by other characters`);
    expect(q.err).not.toMatch(/hunter2|sekrit/);
  });

  it('still imports a good file', async () => {
    const good = join(tmp.dir, 'good.csv');
    writeFileSync(good, 'app_id,app_entitlement_id,app_user_id\napp-1,ent-1,user-1\n');
    const { code, err } = await runCli(['queue', 'import', good, '--kind', 'remove-membership', '--dry-run', '--store', store]);
    expect({ code, err }).toMatchObject({ code: 0, err: expect.stringContaining('dry run: 1 of 1 rows would be queued') });
  });
});

describe('queue add … --file CHANGE.json', () => {
  it('refuses a device, a FIFO and a folder with exit 2', async () => {
    for (const file of ['/dev/zero', fifo, folder]) {
      const { code, err } = await addTemplate(file);
      expect(code).toBe(2);
      expect(err).toMatch(new RegExp(`the JSON file ${file} is .*, not a regular file`));
    }
  });

  it('refuses invalid JSON naming where, never what', async () => {
    const bad = join(tmp.dir, 'bad.json');
    writeFileSync(bad, '{"description": sekrit-value}');
    const one = await addTemplate(bad);
    expect(one.code).toBe(2);
    expect(one.err).toContain(`the JSON file ${bad} is not valid JSON`);
    expect(one.err).not.toContain('sekrit');
    writeFileSync(bad, '{"description": "x",\n  "name" "sekrit"}');
    const two = await addTemplate(bad);
    expect(two.err).toContain(`the JSON file ${bad} is not valid JSON (line 2, column 10)`);
    expect(two.err).not.toContain('sekrit');
    const big = sparse(join(tmp.dir, 'big.json'), 2 * 1024 * 1024);
    const three = await addTemplate(big);
    expect(three.code).toBe(2);
    expect(three.err).toContain(`the JSON file ${big} is 2 MiB, more than the 1 MiB allowed`);
  });
});

describe('verify FILE', () => {
  it('refuses a device, a FIFO, a folder and a file over the limit with exit 2, in the CLI and in the core', async () => {
    const huge = sparse(join(tmp.dir, 'huge.xlsx'), READ_LIMITS.fileBytes + 1);
    const cases: [string, string][] = [
      ['/dev/zero', 'is a character device (like /dev/zero), not a regular file'],
      [fifo, 'is a named pipe (FIFO), not a regular file'],
      [folder, 'is a folder, not a regular file'],
      [huge, 'is 4.0 GiB, more than the 4 GiB allowed'],
    ];
    for (const [file, reason] of cases) {
      const { code, err } = await runCli(['verify', file]);
      expect({ file, code }).toEqual({ file, code: 2 });
      expect(err).toContain(`the workbook ${file} ${reason}`);
      const result = await verifyWorkbook(file);
      expect(result).toMatchObject({ ok: false, status: 'not-attest', reason: `the workbook ${file} ${reason}` });
    }
  });
});

describe('the reader itself', () => {
  it('reads a regular file whole and says why it refuses the rest', () => {
    const file = join(tmp.dir, 'plain.txt');
    writeFileSync(file, 'hello');
    expect(readInputFile(file, 'the file', 5).toString()).toBe('hello');
    expect(checkInputFile(file, 'the file', 5)).toBe(5);
    expect(() => readInputFile(file, 'the file', 4)).toThrow(
      new InputFileError(`the file ${file} is 5 bytes, more than the 4 bytes allowed`),
    );
    expect(() => readInputFile(join(tmp.dir, 'nope'), 'the file', 4)).toThrow(
      `cannot read the file ${join(tmp.dir, 'nope')}: there is no such file`,
    );
  });
});
