import { execFileSync } from 'node:child_process';
import { SYSTEM_PYTHON } from './openpyxl';

/** The reviewer's edits, by openpyxl: each [row, decision, comment]; or a cell set, a row inserted or deleted. */
const EDIT = `
import json, sys
from openpyxl import load_workbook
path, edits = sys.argv[1], json.loads(sys.argv[2])
wb = load_workbook(path)
ws = wb['Review']
for e in edits:
    if e[0] == 'set': ws[e[1]] = e[2]
    elif e[0] == 'append': ws.append(e[1])
    elif e[0] == 'delete': ws.delete_rows(e[1])
    elif e[0] == 'unprotect': ws.protection.sheet = False
    elif e[0] == 'widen': ws.data_validations.dataValidation[0].formula1 = '"Keep,Revoke,Maybe"'
    else:
        ws.cell(row=e[0], column=9).value = e[1]
        ws.cell(row=e[0], column=10).value = e[2]
wb.save(path)
`;

/** A review worksheet edited in place as a reviewer's spreadsheet program would (openpyxl under the system Python). */
export function editWorksheet(file: string, edits: unknown[]): void {
  execFileSync(SYSTEM_PYTHON, ['-c', EDIT, file, JSON.stringify(edits)], { encoding: 'utf8' });
}
