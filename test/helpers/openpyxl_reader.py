"""Independent reader of Attest workbooks for the tests (openpyxl, under /usr/bin/python3).

  dump FILE [--rows]          JSON on stdout: per sheet its name, header, data row count, frozen
                              pane, autofilter, date columns, and the SHA-256 of its canonical
                              content recomputed here from the cells (see src/main/reports/canonical.ts);
                              with --rows, every row in canonical form.
  set FILE SHEET CELL VALUE   edits one cell (VALUE is JSON) and saves the file in place.
"""
import datetime
import hashlib
import json
import sys

import openpyxl


def canonical_cell(value):
    if value is None or value == "":
        return None
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return int(value)
        return value
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        ms = round(value.microsecond / 1000)
        value = value.replace(microsecond=0) + datetime.timedelta(milliseconds=ms)
        return {"d": value.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (value.microsecond // 1000)}
    if isinstance(value, datetime.date):
        return {"d": value.strftime("%Y-%m-%dT00:00:00.000Z")}
    raise ValueError("unexpected cell value %r" % (value,))


def canonical_row(number, cells):
    values = [canonical_cell(c) for c in cells]
    while values and values[-1] is None:
        values.pop()
    if not values:
        return None
    return json.dumps([number] + values, ensure_ascii=False, separators=(",", ":"))


def dump(path, with_rows):
    wb = openpyxl.load_workbook(path, read_only=False)
    out = {"sheets": []}
    for ws in wb.worksheets:
        digest = hashlib.sha256()
        rows = []
        count = 0
        header = None
        date_columns = set()
        for row in ws.iter_rows():
            number = row[0].row if row else None
            text = canonical_row(number, [c.value for c in row])
            if text is None:
                continue
            count += 1
            digest.update((text + "\n").encode("utf-8"))
            if header is None:
                header = [c.value for c in row]
            for c in row:
                if isinstance(c.value, datetime.datetime):
                    date_columns.add(c.column)
            if with_rows:
                rows.append(json.loads(text))
        sheet = {
            "name": ws.title,
            "header": header,
            "rows": max(0, count - 1),
            "sha256": digest.hexdigest(),
            "frozen": ws.freeze_panes,
            "autoFilter": ws.auto_filter.ref,
            "dateColumns": sorted(date_columns),
        }
        if with_rows:
            sheet["data"] = rows
        out["sheets"].append(sheet)
    json.dump(out, sys.stdout, ensure_ascii=False)


def set_cell(path, sheet, cell, value):
    wb = openpyxl.load_workbook(path)
    wb[sheet][cell].value = json.loads(value)
    wb.save(path)


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "dump":
        dump(sys.argv[2], "--rows" in sys.argv[3:])
    elif command == "set":
        set_cell(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        raise SystemExit("unknown command " + command)
