"""Independent reader of Attest workbooks for the tests (openpyxl, under /usr/bin/python3).

  dump FILE [--rows]          JSON on stdout: per sheet its name, state, header, data row count,
                              frozen pane, autofilter, date columns, page setup, and the SHA-256 of its
                              canonical content recomputed here from the cells (form
                              attest-canonical/2, see src/main/reports/canonical.ts; the Evidence
                              sheet with its hash cells taken as empty), and the overall hash over
                              the Evidence sheet's hash table; with --rows, every row's plain values
                              ([rowNumber, ...cells], dates as {"d": ...}).
  set FILE SHEET CELL VALUE   edits one cell (VALUE is JSON) and saves the file in place.
"""
import datetime
import hashlib
import json
import sys
import zipfile
import xml.etree.ElementTree as ET

import openpyxl

EVIDENCE = "Evidence"
HASHES_MARKER = "Hashes"
OVERALL_ENTRY = "All sheets (overall)"
SIGNATURE_ENTRY = "Signature (Ed25519)"
PROPERTIES_ENTRY = "[Document properties]"
# Properties a save rewrites or that count the document: not hashed (see src/main/reports/properties.ts).
SAVE_STAMPS = {"lastModifiedBy", "modified", "lastPrinted", "revision", "language", "Application", "AppVersion", "TotalTime",
               "DocSecurity", "ScaleCrop", "HeadingPairs", "TitlesOfParts", "LinksUpToDate", "SharedDoc", "HyperlinksChanged",
               "Pages", "Words", "Characters", "CharactersWithSpaces", "Lines", "Paragraphs"}


def shown_properties(path, wb):
    """The document properties a reader shows: core ones as openpyxl reads them, app and custom ones from their parts."""
    shown = {}
    for name in ("title", "subject", "creator", "keywords", "description", "category", "contentStatus", "identifier", "version", "created"):
        value = getattr(wb.properties, name, None)
        if isinstance(value, datetime.datetime):
            value = value.strftime("%Y-%m-%dT%H:%M:%SZ")
        if value not in (None, "") and str(value).strip():
            shown["core:" + name] = str(value).strip()
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        if "docProps/app.xml" in names:
            for child in ET.fromstring(z.read("docProps/app.xml")):
                local = child.tag.split("}")[-1]
                text = "".join(child.itertext()).strip()
                if local not in SAVE_STAMPS and text:
                    shown["app:" + local] = text
        if "docProps/custom.xml" in names:
            for child in ET.fromstring(z.read("docProps/custom.xml")):
                text = "".join(child.itertext()).strip()
                if text:
                    shown["custom:" + child.get("name", "")] = text
    return shown


def properties_sha256(shown):
    digest = hashlib.sha256()
    for name in sorted(shown):
        digest.update((json.dumps({name: shown[name]}, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
    return digest.hexdigest()


def plain_cell(cell):
    value = cell.value
    if cell.data_type == "e":
        return {"e": value}
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return int(value)
        return value
    if isinstance(value, datetime.date):
        return iso_date(value)
    raise ValueError("unexpected cell value %r" % (value,))


def iso_date(value):
    """A date cell as the canonical form writes it: {"d": ISO 8601 UTC, to the millisecond}."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        ms = round(value.microsecond / 1000)
        value = value.replace(microsecond=0) + datetime.timedelta(milliseconds=ms)
        return {"d": value.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (value.microsecond // 1000)}
    return {"d": value.strftime("%Y-%m-%dT00:00:00.000Z")}


def canonical_cell(cell, blank=False):
    if blank or cell.value is None:
        return None
    fmt = cell.number_format
    formatted = fmt is not None and fmt.lower() != "general"
    if cell.value == "":
        return {"v": "", "fmt": fmt} if formatted else None
    plain = plain_cell(cell)
    return {"v": plain, "fmt": fmt} if formatted else plain


def canonical_row(number, cells, blank_column=None):
    values = [canonical_cell(c, blank=(i == blank_column)) for i, c in enumerate(cells)]
    while values and values[-1] is None:
        values.pop()
    if not values:
        return None
    return json.dumps([number] + values, ensure_ascii=False, separators=(",", ":"))


def data_row(number, cells):
    """A row as its plain cell values (no formats), for the tests that read contents."""
    values = [None if c.value is None or c.value == "" else plain_cell(c) for c in cells]
    while values and values[-1] is None:
        values.pop()
    return [number] + values if values else None


def hash_rows(ws):
    """The rows whose column B is a hash cell: the hash table's sheet rows, the overall and the signature row."""
    rows = [(row[0].row, [c.value for c in row]) for row in ws.iter_rows() if row]
    marker = next((i for i, (_, v) in enumerate(rows) if v and v[0] == HASHES_MARKER), None)
    if marker is None:
        return set()
    out = set()
    for number, values in rows[marker + 2 :]:
        out.add(number)
        if values[0] == OVERALL_ENTRY:
            nxt = [r for r in rows if r[0] > number][:1]
            if nxt and nxt[0][1][0] == SIGNATURE_ENTRY:
                out.add(nxt[0][0])
            break
    return out


def print_setup(ws):
    """The page setup as openpyxl reads it: orientation, fit to pages, print titles, the odd footer's parts."""
    footer = ws.oddFooter
    parts = {k: getattr(footer, k).text for k in ("left", "center", "right") if getattr(footer, k).text}
    header = ws.oddHeader
    headers = {k: getattr(header, k).text for k in ("left", "center", "right") if getattr(header, k).text}
    return {
        "orientation": ws.page_setup.orientation,
        "fitToPage": bool(ws.sheet_properties.pageSetUpPr and ws.sheet_properties.pageSetUpPr.fitToPage),
        "fitToWidth": ws.page_setup.fitToWidth,
        "fitToHeight": ws.page_setup.fitToHeight,
        "titleRows": ws.print_title_rows,
        "scale": ws.page_setup.scale,
        "printArea": ",".join(ws.print_area) if ws.print_area else None,
        "footer": parts,
        "header": headers,
    }


def dump(path, with_rows):
    wb = openpyxl.load_workbook(path, read_only=False)
    out = {"sheets": []}
    table = []
    for ws in wb.worksheets:
        digest = hashlib.sha256()
        digest.update((json.dumps({"sheet": ws.title, "state": ws.sheet_state}, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
        blanked = hash_rows(ws) if ws.title == EVIDENCE else set()
        rows = []
        count = 0
        header = None
        date_columns = set()
        for row in ws.iter_rows():
            number = row[0].row if row else None
            text = canonical_row(number, row, 1 if number in blanked else None)
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
                rows.append(data_row(number, row))
            if number in blanked and row[0].value != OVERALL_ENTRY and row[0].value != SIGNATURE_ENTRY:
                table.append(row[0].value)
        sheet = {
            "name": ws.title,
            "state": ws.sheet_state,
            "header": header,
            "rows": max(0, count - 1),
            "sha256": digest.hexdigest(),
            "frozen": ws.freeze_panes,
            "autoFilter": ws.auto_filter.ref,
            "dateColumns": sorted(date_columns),
            "print": print_setup(ws),
        }
        if with_rows:
            sheet["data"] = rows
        out["sheets"].append(sheet)
    by_name = {s["name"]: s["sha256"] for s in out["sheets"]}
    shown = shown_properties(path, wb)
    out["properties"] = {"shown": shown, "sha256": properties_sha256(shown)}
    by_name[PROPERTIES_ENTRY] = out["properties"]["sha256"]
    overall = hashlib.sha256()
    for name in table:
        overall.update(("%s\t%s\n" % (name, by_name.get(name, ""))).encode("utf-8"))
    out["overall"] = overall.hexdigest() if table else None
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
