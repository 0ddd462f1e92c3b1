"""What a person sees in a workbook, read with openpyxl (under /usr/bin/python3): the oracle of
the verify differential tests (test/integration/verify-differential.test.ts).

  display_oracle.py FILE [FILE...]   a JSON array on stdout, one entry per file, in order:
                                     {"file", "view"} or {"file", "error"} when openpyxl cannot
                                     open it.

A view holds:
  sheets      every sheet in tab order: its name and state; a visible sheet also has its grid,
              each cell with a value as shown (dates as ISO UTC ms, {"v", "fmt"} when the number
              format is not General, {"formula"} for a formula) or as {"hidden": [why], "v"} when
              the value is there but no person can see it (rules below), and what else the sheet
              shows: comments, data validations, conditional formats, hyperlinks, merged cells,
              drawings, print titles and area, page header and footer, custom views, and the
              types of the parts it links to.
  properties  the document properties a reader displays (core.xml, app.xml, custom.xml).
  names       the workbook's defined names (print titles and areas are on their sheets).
  customViews the workbook's custom views.

The grid is openpyxl's (an independent reader: the cell's row and column from its own `r`, the
sheet's part through the namespaced r:id, its number format through openpyxl's style table).
Only what openpyxl does not read (app.xml and custom.xml, custom views, drawings, the raw row
attributes it folds away) is read from the part XML here.

A cell holding a value is hidden when:
  - its row is hidden, or its row height is under 6 points, or the sheet's sheetFormatPr has
    zeroHeight and the row has no height of its own;
  - its column is hidden or narrower than 2 characters;
  - its font is under 6 points;
  - its font colour's contrast ratio (WCAG) against its background (a solid fill's fgColor, else
    white) is under 1.5 (theme colours from the workbook's theme, 0=lt1 1=dk1 2=lt2 3=dk2
    4..9=accent1..6 10=hlink 11=folHlink, with tint; indexed from the default palette, 64 black,
    65 white; no colour is black);
  - its number format renders the value as nothing (`;;;`, or an empty section for the value's
    sign, or for text in a four-section format).
"""
import colorsys
import datetime
import json
import posixpath
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

import openpyxl
from openpyxl.styles.colors import COLOR_INDEX
from openpyxl.utils.cell import coordinate_to_tuple
from openpyxl_reader import iso_date  # the same date cells as the hash recomputation reads

NS = {
    "main": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "xdr": "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing",
    "ep": "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties",
    "cup": "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties",
}
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"

MIN_ROW_HEIGHT = 6  # points
MIN_COLUMN_WIDTH = 2  # characters
MIN_FONT_SIZE = 6  # points
MIN_CONTRAST = 1.5
MAX_INDENT = 15
# Fonts that draw letters as symbols: the text shown is not the text held.
SYMBOL_FONTS = {"symbol", "wingdings", "wingdings 2", "wingdings 3", "webdings", "marlett", "mt extra", "zapf dingbats"}
BLACK = (0, 0, 0)
WHITE = (255, 255, 255)

# The properties a reader shows as the document's. Those every save rewrites (the program, last
# modified by and when, the language) are not among them: verify names them as who re-saved the file.
CORE_PROPERTIES = "title subject creator keywords description category contentStatus identifier version".split()
APP_PROPERTIES = "Company Manager HyperlinkBase Template".split()
# A formula of a constant boolean shows that boolean (LibreOffice writes every boolean cell so).
BOOLEAN_FORMULAS = {"=TRUE()": True, "=TRUE": True, "=FALSE()": False, "=FALSE": False}
THEME_SLOTS = "lt1 dk1 lt2 dk2 accent1 accent2 accent3 accent4 accent5 accent6 hlink folHlink".split()


# ---- the package, where openpyxl does not look -------------------------------------------------


def read_xml(archive, part):
    try:
        return ET.fromstring(archive.read(part))
    except KeyError:
        return None


def rels_of(archive, part):
    """The relationships of a part: [(id, type, resolved target, external)]."""
    folder, name = posixpath.split(part)
    root = read_xml(archive, posixpath.join(folder, "_rels", name + ".rels"))
    out = []
    for rel in [] if root is None else root.findall("rel:Relationship", NS):
        target = rel.get("Target", "")
        external = rel.get("TargetMode") == "External"
        if not external:
            target = target[1:] if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        out.append((rel.get("Id"), rel.get("Type", ""), target, external))
    return out


def short_type(rel_type):
    return rel_type.rsplit("/", 1)[-1]


def app_properties(archive):
    part = next((t for _, typ, t, ext in rels_of(archive, "") if short_type(typ) == "extended-properties" and not ext), None)
    root = read_xml(archive, part) if part else None
    out = {}
    for key in APP_PROPERTIES:
        text = root.findtext("ep:" + key, None, NS) if root is not None else None
        if text:
            out[key] = text
    return out


def custom_properties(archive):
    part = next((t for _, typ, t, ext in rels_of(archive, "") if short_type(typ) == "custom-properties" and not ext), None)
    root = read_xml(archive, part) if part else None
    out = {}
    for prop in [] if root is None else root.findall("cup:property", NS):
        out[prop.get("name")] = "".join(child.text or "" for child in prop)
    return out


def attributes(element):
    return {k.rsplit("}", 1)[-1]: v for k, v in sorted(element.attrib.items())}


def sheet_parts(archive):
    """Each sheet's part by its name, through the namespaced r:id as openpyxl resolves it."""
    workbook = read_xml(archive, "xl/workbook.xml")
    targets = {rid: target for rid, _, target, _ in rels_of(archive, "xl/workbook.xml")}
    return {s.get("name"): targets.get(s.get(R_ID)) for s in workbook.iterfind("main:sheets/main:sheet", NS)}


def raw_rows(sheet_xml):
    """The rows' own attributes by row number (openpyxl turns customHeight into 'has a height'),
    and the cells written without a style (`s`), placed as openpyxl places them: by their own
    `r`, else next to the cell before."""
    rows, unstyled = {}, set()
    number = 0
    for row in sheet_xml.iterfind("main:sheetData/main:row", NS):
        number = int(row.get("r")) if row.get("r") else number + 1
        rows[number] = row.attrib
        column = 0
        for cell in row.iterfind("main:c", NS):
            if cell.get("r"):
                at = coordinate_to_tuple(cell.get("r"))
                column = at[1]
            else:
                column += 1
                at = (number, column)
            if cell.get("s") is None:
                unstyled.add(at)
    return rows, unstyled


def drawings(archive, part):
    """What the drawings of a sheet hold: per anchor, the kind of each object and its text."""
    out = []
    for _, typ, target, external in rels_of(archive, part):
        if short_type(typ) != "drawing" or external:
            continue
        root = read_xml(archive, target)
        for anchor in [] if root is None else list(root):
            for obj in anchor:
                kind = obj.tag.rsplit("}", 1)[-1]
                if kind in ("from", "to", "pos", "ext", "clientData"):
                    continue
                text = "".join(t.text or "" for t in obj.iter("{%s}t" % NS["a"]))
                out.append({"kind": kind, "text": text})
    return out


# ---- colours -------------------------------------------------------------------------------------


def theme_colours(wb):
    if not wb.loaded_theme:
        return {}
    root = ET.fromstring(wb.loaded_theme)
    scheme = root.find("a:themeElements/a:clrScheme", NS)
    out = {}
    for slot in [] if scheme is None else scheme:
        name = slot.tag.rsplit("}", 1)[-1]
        srgb = slot.find("a:srgbClr", NS)
        sys_clr = slot.find("a:sysClr", NS)
        if srgb is not None:
            out[name] = srgb.get("val")
        elif sys_clr is not None:
            out[name] = sys_clr.get("lastClr") or ("FFFFFF" if sys_clr.get("val") == "window" else "000000")
    return out


def hex_rgb(text):
    text = text[-6:]
    return tuple(int(text[i : i + 2], 16) for i in (0, 2, 4))


def with_tint(rgb, tint):
    if not tint:
        return rgb
    h, l, s = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    l = l * (1 + tint) if tint < 0 else l * (1 - tint) + tint
    return tuple(round(c * 255) for c in colorsys.hls_to_rgb(h, l, s))


def resolve(colour, theme, default):
    """An openpyxl Color as (r, g, b); `default` when it has none."""
    if colour is None:
        return default
    kind = colour.type
    if kind == "rgb" and isinstance(colour.rgb, str):
        rgb = hex_rgb(colour.rgb)
    elif kind == "theme":
        slot = THEME_SLOTS[colour.theme] if 0 <= colour.theme < len(THEME_SLOTS) else None
        rgb = hex_rgb(theme[slot]) if slot in theme else default
    elif kind == "indexed":
        index = colour.indexed
        rgb = hex_rgb(COLOR_INDEX[index]) if 0 <= index < len(COLOR_INDEX) else BLACK if index == 64 else WHITE if index == 65 else default
    else:  # auto: the system's text colour
        return default
    return with_tint(rgb, colour.tint)


def luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# ---- number formats ------------------------------------------------------------------------------


def sections(code):
    """A format code split at its unquoted, unescaped semicolons."""
    out, current, i = [], "", 0
    while i < len(code):
        ch = code[i]
        if ch == '"':
            end = code.find('"', i + 1)
            end = len(code) - 1 if end < 0 else end
            current += code[i : end + 1]
            i = end + 1
            continue
        if ch == "\\" and i + 1 < len(code):
            current += code[i : i + 2]
            i += 2
            continue
        if ch == "[":
            end = code.find("]", i)
            end = len(code) - 1 if end < 0 else end
            current += code[i : end + 1]
            i = end + 1
            continue
        if ch == ";":
            out.append(current)
            current = ""
        else:
            current += ch
        i += 1
    out.append(current)
    return out


def renders_nothing(section):
    """Whether a section prints no visible character: only colours, conditions, locales, spaces,
    padding (`_x`), space fill (`* `) and empty or blank quoted text."""
    i = 0
    while i < len(section):
        ch = section[i]
        if ch == "[":
            end = section.find("]", i)
            token = section[i + 1 : end if end >= 0 else len(section)]
            if re.fullmatch(r"[hms]+", token, re.I):
                return False  # elapsed time prints digits
            i = len(section) if end < 0 else end + 1
        elif ch == '"':
            end = section.find('"', i + 1)
            end = len(section) if end < 0 else end
            if section[i + 1 : end].strip():
                return False
            i = end + 1
        elif ch in "_*\\":
            if ch != "_" and section[i + 1 : i + 2].strip():
                return False
            i += 2
        elif ch.isspace():
            i += 1
        else:
            return False
    return True


def normal_format(code):
    """A format code as it shows: a backslash before a character that prints as itself anyway is
    dropped (LibreOffice writes `yyyy-mm-dd` as `yyyy\\-mm\\-dd`; both show the same)."""
    if not code:
        return code
    return re.sub(r"\\([-$+/():!^&'~{}<>= ])", r"\1", code)


def format_hides(code, value):
    """Whether the number format `code` shows `value` as nothing."""
    if not code or code.lower() == "general":
        return False
    parts = sections(code)
    if isinstance(value, (str, bool)):
        if len(parts) >= 4:
            return renders_nothing(parts[3])
        return "@" in parts[0] and renders_nothing(parts[0])
    if isinstance(value, datetime.timedelta):
        value = value.total_seconds()
    if isinstance(value, (datetime.date, datetime.time)):
        value = 1  # a date or time is a positive serial number
    if not isinstance(value, (int, float)):
        return False
    numeric = parts[:3]
    if any(re.search(r"\[[<>=]", p) for p in numeric):
        return all(renders_nothing(p) for p in numeric)  # conditional sections: hidden only when all are
    if len(numeric) == 1:
        return renders_nothing(numeric[0]) and value >= 0
    if len(numeric) == 2:
        return renders_nothing(numeric[0] if value >= 0 else numeric[1])
    return renders_nothing(numeric[0] if value > 0 else numeric[1] if value < 0 else numeric[2])


# ---- cells ---------------------------------------------------------------------------------------


def shown_value(cell):
    value = cell.value
    if cell.data_type == "f" and str(value).upper() in BOOLEAN_FORMULAS:
        return BOOLEAN_FORMULAS[str(value).upper()]
    if cell.data_type == "f":
        return {"formula": str(value)}
    if cell.data_type == "e":
        return {"e": value}
    if isinstance(value, datetime.date):
        return iso_date(value)
    if isinstance(value, (datetime.time, datetime.timedelta)):
        return {"t": str(value)}
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


class SheetView:
    """The visibility of a sheet's rows and columns."""

    def __init__(self, ws, sheet_xml):
        self.ws = ws
        fmt = sheet_xml.find("main:sheetFormatPr", NS) if sheet_xml is not None else None
        self.zero_height = fmt is not None and fmt.get("zeroHeight") in ("1", "true")
        self.rows, self.unstyled = raw_rows(sheet_xml) if sheet_xml is not None else ({}, set())
        self.columns = []
        for dim in ws.column_dimensions.values():
            if dim.min is not None and dim.max is not None:
                self.columns.append(dim)

    def row_hidden(self, number):
        dim = self.ws.row_dimensions[number] if number in self.ws.row_dimensions else None
        raw = self.rows.get(number, {})
        if dim is not None and dim.hidden:
            return "row hidden"
        if dim is not None and dim.ht is not None and dim.ht < MIN_ROW_HEIGHT:
            return "row height %g" % dim.ht
        if self.zero_height and raw.get("customHeight") not in ("1", "true"):
            return "zeroHeight"
        return None

    def column(self, index):
        return next((dim for dim in self.columns if dim.min <= index <= dim.max), None)

    def column_hidden(self, index):
        dim = self.column(index)
        if dim is not None and dim.hidden:
            return "column hidden"
        if dim is not None and dim.width is not None and dim.width < MIN_COLUMN_WIDTH:
            return "column width %g" % dim.width
        return None

    def styled(self, cell):
        """What gives a cell its style: its own `s`; written without one, its row's style when the
        row has customFormat, else its column's (as LibreOffice shows it; openpyxl gives it style 0)."""
        if (cell.row, cell.column) not in self.unstyled:
            return cell
        raw = self.rows.get(cell.row, {})
        if raw.get("customFormat") in ("1", "true") and raw.get("s") is not None:
            return self.ws.row_dimensions[cell.row]
        dim = self.column(cell.column)
        if dim is not None and dim.style_id:
            return dim
        return cell


def cell_hidden(cell, view, theme):
    reasons = []
    for reason in (view.row_hidden(cell.row), view.column_hidden(cell.column)):
        if reason:
            reasons.append(reason)
    styled = view.styled(cell)
    font = styled.font
    if font is not None and font.sz is not None and font.sz < MIN_FONT_SIZE:
        reasons.append("font size %g" % font.sz)
    if font is not None and ((font.name or "").lower() in SYMBOL_FONTS or font.charset == 2):
        reasons.append("symbol font %s" % font.name)
    alignment = styled.alignment
    if alignment is not None and alignment.horizontal == "fill":
        reasons.append("alignment fill (the text repeated)")
    if alignment is not None and alignment.shrinkToFit:
        reasons.append("shrunk to fit")
    if alignment is not None and (alignment.indent or 0) > MAX_INDENT:
        reasons.append("indent %g" % alignment.indent)
    text = resolve(font.color if font is not None else None, theme, BLACK)
    fill = styled.fill
    background = WHITE
    if fill is not None and getattr(fill, "patternType", None) == "solid":
        background = resolve(fill.fgColor, theme, WHITE)
    ratio = contrast(text, background)
    if ratio < MIN_CONTRAST:
        reasons.append("contrast %.2f" % ratio)
    if cell.data_type != "f" and format_hides(styled.number_format, cell.value):
        reasons.append("number format %s" % styled.number_format)
    return reasons


def shown_cell(cell, view, theme):
    value = shown_value(cell)
    hidden = cell_hidden(cell, view, theme)
    if hidden:
        return {"hidden": hidden, "v": value}
    fmt = normal_format(view.styled(cell).number_format)
    if fmt and fmt.lower() != "general" and cell.data_type != "f":
        return {"v": value, "fmt": fmt}
    return value


# ---- sheets and the workbook ---------------------------------------------------------------------


def header_footer(ws):
    out = {}
    for which in ("oddHeader", "oddFooter", "evenHeader", "evenFooter", "firstHeader", "firstFooter"):
        part = getattr(ws, which)
        for side in ("left", "center", "right"):
            text = getattr(part, side).text
            if text:
                out["%s.%s" % (which, side)] = text
    return out


def conditional_formats(ws):
    out = []
    for cf in ws.conditional_formatting:
        for rule in cf.rules:
            out.append({"range": str(cf.sqref), "type": rule.type, "operator": rule.operator, "formula": list(rule.formula or [])})
    return out


def sheet_view(ws, archive, part, theme):
    sheet_xml = read_xml(archive, part) if part else None
    view = SheetView(ws, sheet_xml)
    grid = {}
    comments = {}
    hyperlinks = {}
    for row in ws.iter_rows():
        for cell in row:
            if cell.comment is not None:
                comments[cell.coordinate] = {"text": cell.comment.text, "author": cell.comment.author}
            if cell.hyperlink is not None:
                link = cell.hyperlink
                hyperlinks[cell.coordinate] = {"target": link.target, "location": link.location, "display": link.display}
            if cell.value is None or cell.value == "":
                continue
            grid[cell.coordinate] = shown_cell(cell, view, theme)
    custom_views = []
    if sheet_xml is not None:
        for cv in sheet_xml.iterfind("main:customSheetViews/main:customSheetView", NS):
            custom_views.append({"attributes": attributes(cv), "children": [c.tag.rsplit("}", 1)[-1] for c in cv]})
    return {
        "grid": grid,
        "comments": comments,
        "dataValidations": [
            {"range": str(dv.sqref), "type": dv.type, "formula1": dv.formula1, "prompt": dv.prompt, "error": dv.error}
            for dv in ws.data_validations.dataValidation
        ],
        "conditionalFormats": conditional_formats(ws),
        "hyperlinks": hyperlinks,
        "merged": sorted(str(r) for r in ws.merged_cells.ranges),
        "drawings": drawings(archive, part) if part else [],
        "printTitles": {"rows": ws.print_title_rows, "cols": ws.print_title_cols},
        "printArea": ws.print_area,
        "headerFooter": header_footer(ws),
        "customViews": custom_views,
        "links": sorted(short_type(typ) for _, typ, _, _ in rels_of(archive, part)) if part else [],
    }


def core_properties(wb):
    props = wb.properties
    out = {}
    for key in CORE_PROPERTIES:
        value = getattr(props, key, None)
        if value not in (None, ""):
            out[key] = str(value)
    return out


def workbook_view(path):
    wb = openpyxl.load_workbook(path)
    theme = theme_colours(wb)
    with zipfile.ZipFile(path) as archive:
        parts = sheet_parts(archive)
        sheets = []
        for ws in wb.worksheets:
            entry = {"name": ws.title, "state": ws.sheet_state}
            if ws.sheet_state == "visible":
                entry.update(sheet_view(ws, archive, parts.get(ws.title), theme))
            sheets.append(entry)
        workbook_xml = read_xml(archive, "xl/workbook.xml")
        custom_views = [attributes(v) for v in workbook_xml.iterfind("main:customWorkbookViews/main:customWorkbookView", NS)]
        return {
            "sheets": sheets,
            "properties": {"core": core_properties(wb), "app": app_properties(archive), "custom": custom_properties(archive)},
            "names": sorted(
                ({"name": n.name, "localSheetId": n.localSheetId, "value": n.value} for n in wb.defined_names.definedName),
                key=lambda n: (n["name"], n["localSheetId"] if n["localSheetId"] is not None else -1),
            ),
            "customViews": custom_views,
        }


def main(paths):
    out = []
    for path in paths:
        try:
            out.append({"file": path, "view": workbook_view(path)})
        except Exception as error:  # a file openpyxl cannot open shows nothing: the test says so
            out.append({"file": path, "error": "%s: %s" % (type(error).__name__, error)})
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1:])
