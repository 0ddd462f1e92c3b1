import { createHash } from 'node:crypto';
import { attributesOf, NS, type XmlParser } from './xml';

/**
 * A workbook's document properties (docProps/core.xml, app.xml, custom.xml), as Excel's File >
 * Info and LibreOffice's Properties show them. Those a person reads as statements about the
 * document (title, author, company, comments, hyperlink base, custom properties...) are
 * `shown`, and hashed since attest-canonical/4; those every save rewrites (the program, last
 * modified by and when) are `saved`, and only reported: they tell who re-saved the file.
 */
export interface DocumentProperties {
  /** Shown properties by name ("core:title", "app:Company", "custom:Approved"), non-empty values only. */
  shown: Record<string, string>;
  /** What the last save stamped: the program, who, when. */
  saved: { application: string | null; appVersion: string | null; modifiedBy: string | null; modified: string | null };
  /** Elements of the properties parts verify does not know (reported). */
  unknown: string[];
}

/**
 * Properties every save rewrites, or that count the document: not statements a reader is shown
 * as the author's. Every other property (title, subject, creator, keywords, description,
 * category, status, created, company, manager, hyperlink base, template, custom ones) is shown.
 */
const SAVE_STAMPS = new Set([
  'core:lastModifiedBy',
  'core:modified',
  'core:lastPrinted',
  'core:revision',
  'core:language',
  'app:Application',
  'app:AppVersion',
  'app:TotalTime',
  'app:DocSecurity',
  'app:ScaleCrop',
  'app:HeadingPairs',
  'app:TitlesOfParts',
  'app:LinksUpToDate',
  'app:SharedDoc',
  'app:HyperlinksChanged',
  'app:Pages',
  'app:Words',
  'app:Characters',
  'app:CharactersWithSpaces',
  'app:Lines',
  'app:Paragraphs',
]);

const PREFIXES: Record<string, string> = { [NS.core]: 'core', [NS.dc]: 'core', [NS.dcterms]: 'core', [NS.extended]: 'app' };

/** A W3CDTF date to the second, as every writer keeps it ("2026-11-28T03:38:09Z"). */
const normaliseDate = (value: string): string => {
  const date = new Date(value);
  return Number.isFinite(date.getTime()) ? `${date.toISOString().slice(0, 19)}Z` : value;
};

type Consume = (part: string) => (setup: (parser: XmlParser) => void) => Promise<void>;

/** Reads the properties parts that the package's relationships name (null: none). */
export async function readProperties(
  consume: Consume,
  core: string | null,
  extended: string | null,
  custom: string | null,
): Promise<DocumentProperties> {
  const all = new Map<string, string>();
  const unknown: string[] = [];
  const read = async (part: string, custom: boolean): Promise<void> => {
    let depth = 0;
    let current: string | null = null;
    let text = '';
    await consume(part)((parser) => {
      parser.on('opentag', (tag) => {
        depth += 1;
        if (custom) {
          if (depth === 2 && tag.uri === NS.custom && tag.local === 'property') {
            current = `custom:${attributesOf(tag, part).get('name') ?? ''}`;
            text = '';
          }
          return;
        }
        if (depth !== 2) return;
        const prefix = PREFIXES[tag.uri];
        current = prefix ? `${prefix}:${tag.local}` : null;
        if (!current) unknown.push(`${part}: <${tag.name}>`);
        text = '';
      });
      parser.on('text', (t) => {
        if (current && text.length < 65_536) text += t;
      });
      parser.on('closetag', () => {
        if (current && depth === 2) {
          if (all.has(current)) unknown.push(`${part}: ${current} given twice`);
          all.set(current, text.trim());
          current = null;
        }
        depth -= 1;
      });
    });
  };
  if (core) await read(core, false);
  if (extended) await read(extended, false);
  if (custom) await read(custom, true);
  const shown: Record<string, string> = {};
  for (const [name, value] of [...all].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (SAVE_STAMPS.has(name) || value === '') continue;
    shown[name] = name === 'core:created' ? normaliseDate(value) : value;
  }
  const get = (name: string): string | null => all.get(name) || null;
  return {
    shown,
    saved: {
      application: get('app:Application'),
      appVersion: get('app:AppVersion'),
      modifiedBy: get('core:lastModifiedBy'),
      modified: get('core:modified'),
    },
    unknown,
  };
}

/** The entry of the hash table that covers the document properties (no sheet can be named with brackets). */
export const PROPERTIES_ENTRY = '[Document properties]';

/** The canonical text of shown properties: `{"name":value}` lines in name order; its SHA-256 is the entry's hash. */
export function propertiesSha256(shown: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(shown).sort()) hash.update(`${JSON.stringify({ [name]: shown[name] })}\n`, 'utf8');
  return hash.digest('hex');
}
