/**
 * A review worksheet verified on its own (no store): written by the exporter with a signing key,
 * its decisions written with openpyxl still verify as intact and signed; an evidence cell changed,
 * a forged signature or another key is named.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReviewWorksheet, writeWorksheet, type ReviewRow } from '../../src/main/reports/review-worksheet';
import { ephemeralSigner } from '../../src/main/reports/signing';
import { SYSTEM_PYTHON } from '../helpers/openpyxl';
import { tempDir } from './sync.helpers';

let tmp: ReturnType<typeof tempDir>;
let file: string;
const signer = ephemeralSigner();

const rows: ReviewRow[] = Array.from({ length: 12 }, (_, i) => ({
  appId: 'app-1',
  entitlementId: 'ent-admins',
  appUserId: `user-${i + 1}`,
  subject: `Person ${i + 1}`,
  email: `person${i + 1}@example.com`,
  app: 'Okta',
  entitlement: 'Admins',
  since: new Date(Date.UTC(2024, 0, i + 1, 9, 30)),
  granted: i % 3 ? 'direct' : 'inherited',
  removable: 'yes',
}));

beforeAll(async () => {
  tmp = tempDir('attest-review-verify-');
  file = join(tmp.dir, 'signed.xlsx');
  await writeWorksheet(rows, {
    out: file,
    scope: { entitlements: ['ent-admins'] },
    scopeText: 'entitlement Admins (ent-admins)',
    reviewer: 'Rita Reviewer',
    asOfRun: 3,
    dataAsOf: '2026-11-28T06:00:00.000Z',
    tenant: 'tenant.example',
    appVersion: '9.9.9',
    signer,
  });
});
afterAll(() => tmp?.remove());

/** A copy of the worksheet with cells set by openpyxl (the way a spreadsheet program saves it). */
function edited(name: string, cells: Record<string, string>, sheet = 'Review'): string {
  const out = join(tmp.dir, name);
  copyFileSync(file, out);
  const script = `
import json, sys
from openpyxl import load_workbook
wb = load_workbook(sys.argv[1])
for ref, value in json.loads(sys.argv[3]).items(): wb[sys.argv[2]][ref] = value
wb.save(sys.argv[1])
`;
  execFileSync(SYSTEM_PYTHON, ['-c', script, out, sheet, JSON.stringify(cells)]);
  return out;
}

describe('attest verify of a review worksheet', () => {
  it('as exported: intact, signed by the key', async () => {
    const result = await verifyReviewWorksheet(file, signer.fingerprint);
    expect(result).toMatchObject({ status: 'intact', signedBy: signer.fingerprint, problems: [], decided: 0 });
    expect(result.sha256).toBe(result.recorded);
  });

  it('decided (Decision and Comment only): still intact and signed', async () => {
    const decided = edited('decided.xlsx', { I2: 'Revoke', J2: 'left', I3: 'Keep', J3: 'needed' });
    expect(await verifyReviewWorksheet(decided, signer.fingerprint)).toMatchObject({ status: 'intact', decided: 2 });
  });

  it('an evidence cell, the Cover, or the signature changed: altered; another key: named', async () => {
    const changed = edited('changed.xlsx', { E4: 'Auditors' });
    expect((await verifyReviewWorksheet(changed)).problems.join('\n')).toMatch(/hash as [0-9a-f]{64}, the Cover recorded/);
    const reviewer = edited('reviewer.xlsx', { B3: 'Someone Else' }, 'Cover');
    expect((await verifyReviewWorksheet(reviewer)).status).toBe('altered');
    const forged = edited('forged.xlsx', { B17: ephemeralSigner().sign(Buffer.from('x')).toString('base64') }, 'Cover');
    expect((await verifyReviewWorksheet(forged)).problems).toContain(
      'the signature does not match the worksheet or the key the Cover names',
    );
    const other = ephemeralSigner().fingerprint;
    expect((await verifyReviewWorksheet(file, other)).problems).toEqual([`signed by ${signer.fingerprint}, not by ${other}`]);
  });
});
