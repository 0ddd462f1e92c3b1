import { SheetHasher, overallHash } from './canonical';
import { EVIDENCE_FORMAT, EVIDENCE_SHEET, HASHES_MARKER, MANIFEST_ENTRY, OVERALL_ENTRY } from './workbook';
import { NotAnXlsx, XlsxReader, type XlsxSheet } from './xlsx-reader';

/**
 * `attest verify`: reads an Attest workbook's cells back, recomputes the canonical hash of every
 * sheet listed on its Evidence sheet (and of the Evidence sheet's own manifest rows), and says
 * which sheets no longer match. This proves the cells are those written at export, not who wrote
 * them: the hashes are not a signature.
 */

export type SheetStatus = 'intact' | 'altered' | 'missing' | 'unexpected';

export interface SheetCheck {
  name: string;
  status: SheetStatus;
  expectedSha256?: string;
  actualSha256?: string;
  expectedRows?: number;
  actualRows?: number;
}

export interface VerifyResult {
  file: string;
  /** 'intact': every hash matches; 'altered': something changed; 'not-attest': not our workbook. */
  status: 'intact' | 'altered' | 'not-attest';
  reason?: string;
  sheets: SheetCheck[];
  expectedOverall?: string;
  actualOverall?: string;
  /** A few fields of the manifest, for display (report, tenant, generated at…). */
  manifest: Record<string, string>;
}

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);

interface HashEntry {
  name: string;
  sha256: string;
  rows: number | undefined;
}

export async function verifyWorkbook(file: string, onProgress?: (sheet: string, rows: number) => void): Promise<VerifyResult> {
  let reader: XlsxReader;
  try {
    reader = await XlsxReader.open(file);
  } catch (error) {
    if (error instanceof NotAnXlsx) return notAttest(file, error.message);
    throw error;
  }
  const evidence = reader.sheets.find((s) => s.name === EVIDENCE_SHEET);
  if (!evidence) return notAttest(file, `no '${EVIDENCE_SHEET}' sheet`);

  // Read the Evidence sheet whole (it is small): manifest rows above the marker, then the table.
  const evidenceRows: { number: number; cells: unknown[] }[] = [];
  for await (const row of reader.rows(evidence)) {
    evidenceRows.push(row);
    if (evidenceRows.length > 10_000) return notAttest(file, 'the Evidence sheet is not an Attest manifest');
  }
  const manifest: Record<string, string> = {};
  const markerIndex = evidenceRows.findIndex((r) => r.cells[0] === HASHES_MARKER);
  for (const row of evidenceRows.slice(0, markerIndex < 0 ? evidenceRows.length : markerIndex)) {
    const key = text(row.cells[0]);
    if (key && !(key in manifest)) manifest[key] = text(row.cells[1]);
  }
  if (manifest.Format !== EVIDENCE_FORMAT) return notAttest(file, `the Evidence sheet does not carry Format ${EVIDENCE_FORMAT}`);
  if (markerIndex < 0) return altered(file, manifest, 'the hash table of the Evidence sheet is missing');

  const manifestHasher = new SheetHasher();
  for (const row of evidenceRows.slice(0, markerIndex)) manifestHasher.add(row.number, row.cells);

  const entries: HashEntry[] = [];
  let expectedOverall: string | undefined;
  for (const row of evidenceRows.slice(markerIndex + 1)) {
    const [name, sha, rows] = row.cells;
    if (name === 'Sheet') continue;
    if (name === OVERALL_ENTRY) {
      expectedOverall = text(sha);
      break;
    }
    if (typeof name === 'string' && typeof sha === 'string' && /^[0-9a-f]{64}$/.test(sha)) {
      entries.push({ name, sha256: sha, rows: typeof rows === 'number' ? rows : undefined });
    }
  }
  const manifestEntry = entries.find((e) => e.name === MANIFEST_ENTRY);
  if (!manifestEntry || !expectedOverall) return altered(file, manifest, 'the hash table of the Evidence sheet is incomplete');

  const checks: SheetCheck[] = [];
  const actual: { name: string; sha256: string }[] = [];
  for (const entry of entries) {
    if (entry.name === MANIFEST_ENTRY) {
      const sha = manifestHasher.digest();
      actual.push({ name: entry.name, sha256: sha });
      checks.push({
        name: entry.name,
        status: sha === entry.sha256 ? 'intact' : 'altered',
        expectedSha256: entry.sha256,
        actualSha256: sha,
        expectedRows: entry.rows,
        actualRows: manifestHasher.rows,
      });
      continue;
    }
    const sheet = reader.sheets.find((s) => s.name === entry.name);
    if (!sheet) {
      checks.push({ name: entry.name, status: 'missing', expectedSha256: entry.sha256, expectedRows: entry.rows });
      actual.push({ name: entry.name, sha256: '' });
      continue;
    }
    const { sha256, rows } = await hashSheet(reader, sheet, onProgress);
    actual.push({ name: entry.name, sha256 });
    const dataRows = Math.max(0, rows - 1);
    checks.push({
      name: entry.name,
      status: sha256 === entry.sha256 ? 'intact' : 'altered',
      expectedSha256: entry.sha256,
      actualSha256: sha256,
      expectedRows: entry.rows,
      actualRows: dataRows,
    });
  }
  for (const sheet of reader.sheets) {
    if (sheet.name !== EVIDENCE_SHEET && !entries.some((e) => e.name === sheet.name)) {
      checks.push({ name: sheet.name, status: 'unexpected' });
    }
  }
  const recorded = overallHash(entries);
  const actualOverall = overallHash(actual);
  const ok = checks.every((c) => c.status === 'intact') && recorded === expectedOverall && actualOverall === expectedOverall;
  const result: VerifyResult = {
    file,
    status: ok ? 'intact' : 'altered',
    sheets: checks,
    expectedOverall,
    actualOverall,
    manifest,
  };
  if (!ok && checks.every((c) => c.status === 'intact')) result.reason = 'the hash table of the Evidence sheet was edited';
  return result;
}

async function hashSheet(
  reader: XlsxReader,
  sheet: XlsxSheet,
  onProgress?: (sheet: string, rows: number) => void,
): Promise<{ sha256: string; rows: number }> {
  const hasher = new SheetHasher();
  for await (const row of reader.rows(sheet)) {
    hasher.add(row.number, row.cells);
    if (onProgress && hasher.rows % 50_000 === 0) onProgress(sheet.name, hasher.rows);
  }
  return { rows: hasher.rows, sha256: hasher.digest() };
}

function notAttest(file: string, reason: string): VerifyResult {
  return { file, status: 'not-attest', reason, sheets: [], manifest: {} };
}

function altered(file: string, manifest: Record<string, string>, reason: string): VerifyResult {
  return { file, status: 'altered', reason, sheets: [], manifest };
}

/** Names of the sheets a verify result found changed, missing or added. */
export function changedSheets(result: VerifyResult): string[] {
  return result.sheets.filter((s) => s.status !== 'intact').map((s) => (s.name === MANIFEST_ENTRY ? EVIDENCE_SHEET : s.name));
}
