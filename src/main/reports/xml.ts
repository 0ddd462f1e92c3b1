import type { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { READ_LIMITS, UnreadableWorkbook } from './zip';

/**
 * XML parts read with saxes, guarded for `attest verify`: no DTD, entity declaration, comment,
 * CDATA section or processing instruction (no writer of workbooks needs one; a DTD is how XXE
 * and entity bombs come in), and no text, attribute or tag longer than READ_LIMITS.xmlRun
 * characters, so the parser never buffers more than that.
 */

/**
 * Parts are read with namespaces resolved, as Excel, LibreOffice and openpyxl read them: an
 * element or attribute is known by its namespace and local name, never by its prefix, so a
 * `<foo:row xmlns:foo="urn:other">` is not a row and `id` is not `r:id`.
 */
export type XmlParser = SaxesParser<{ xmlns: true }>;
export type XmlTag = SaxesTagNS;

export const NS = {
  main: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  rel: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  packageRel: 'http://schemas.openxmlformats.org/package/2006/relationships',
  contentTypes: 'http://schemas.openxmlformats.org/package/2006/content-types',
  mc: 'http://schemas.openxmlformats.org/markup-compatibility/2006',
  drawing: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  core: 'http://schemas.openxmlformats.org/package/2006/metadata/core-properties',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  extended: 'http://schemas.openxmlformats.org/officeDocument/2006/extended-properties',
  custom: 'http://schemas.openxmlformats.org/officeDocument/2006/custom-properties',
} as const;

/** The file can be read two ways (two readers would show different things): verify refuses it rather than pick one. */
export class AmbiguousWorkbook extends Error {
  override name = 'AmbiguousWorkbook';
}

const XMLNS = 'http://www.w3.org/2000/xmlns/';

/** Namespaces whose attributes change nothing shown (Excel's revision ids, text descent, markup compatibility). */
const NEUTRAL_ATTRIBUTE_NAMESPACES = new Set([
  'http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac',
  'http://schemas.microsoft.com/office/spreadsheetml/2014/revision',
  'http://schemas.microsoft.com/office/spreadsheetml/2015/revision2',
  'http://schemas.microsoft.com/office/spreadsheetml/2016/revision3',
  'http://www.w3.org/XML/1998/namespace',
  NS.mc,
]);

const NONE: readonly string[] = [];

/**
 * An element's attributes by namespace: those of no namespace by local name, `r:` ones apart,
 * and the names of those of a namespace verify does not know. Built once per element (the
 * hottest path of verify: every cell and value), so it holds plain objects and no closures.
 */
export class Attributes {
  // A handful of attributes per element: parallel arrays beat a dictionary object here.
  private readonly names: string[] = [];
  private readonly values: string[] = [];
  private relNames: string[] | undefined;
  private relValues: string[] | undefined;
  private otherNames: string[] | undefined;
  /** Local names of attributes of other namespaces (neutral or not), for the twin check. */
  private otherLocals: string[] | undefined;

  /** An attribute of no namespace. */
  get(local: string): string | undefined {
    const i = this.names.indexOf(local);
    return i < 0 ? undefined : this.values[i];
  }

  /** An attribute of the relationships namespace (`r:id`). */
  rel(local: string): string | undefined {
    const i = this.relNames?.indexOf(local) ?? -1;
    return i < 0 ? undefined : this.relValues![i];
  }

  /** The local names of the attributes of no namespace. */
  plain(): readonly string[] {
    return this.names;
  }

  /** The attributes not among `allowed` (of no namespace), and those of a namespace no reader of ours knows. */
  unread(allowed: ReadonlySet<string>): readonly string[] {
    let out: string[] | undefined;
    for (const name of this.names) if (!allowed.has(name)) (out ??= []).push(name);
    if (this.otherNames) (out ??= []).push(...this.otherNames);
    return out ?? NONE;
  }

  private has(local: string): boolean {
    return this.names.includes(local) || Boolean(this.relNames?.includes(local)) || Boolean(this.otherLocals?.includes(local));
  }

  /**
   * The attributes of a tag. Two attributes of one local name (`id` and `r:id`, or `r` in two
   * namespaces) are an ambiguity: readers that match by prefix, by local name or by namespace
   * would each take another, so the part is refused.
   */
  static of(tag: XmlTag, part: string): Attributes {
    let any = false;
    for (const key in tag.attributes) {
      any = key !== undefined;
      break;
    }
    if (!any) return NO_ATTRIBUTES; // most elements of a sheet (<v>, <is>, <t>) carry none
    const attributes = new Attributes();
    for (const key in tag.attributes) {
      const { uri, prefix, name, local, value } = tag.attributes[key]!;
      if (uri === XMLNS || prefix === 'xmlns' || name === 'xmlns') continue;
      if (attributes.has(local))
        throw new AmbiguousWorkbook(
          `the part ${part} has <${tag.local}> with two attributes named '${local}' (${attributes.nameOf(local)} and ${name}): ` +
            'spreadsheet programs take different ones',
        );
      if (uri === '') {
        attributes.names.push(local);
        attributes.values.push(value);
      } else if (uri === NS.rel) {
        (attributes.relNames ??= []).push(local);
        (attributes.relValues ??= []).push(value);
      } else {
        (attributes.otherLocals ??= []).push(local);
        if (!NEUTRAL_ATTRIBUTE_NAMESPACES.has(uri)) (attributes.otherNames ??= []).push(name);
      }
    }
    return attributes;
  }

  /** How the twin of `local` was written, for the message. */
  private nameOf(local: string): string {
    if (this.names.includes(local)) return local;
    if (this.relNames?.includes(local)) return `r:${local}`;
    return `another namespace's ${local}`;
  }
}

const NO_ATTRIBUTES = new Attributes();

/** The attributes of a tag (see Attributes.of). */
export const attributesOf = (tag: XmlTag, part: string): Attributes => Attributes.of(tag, part);

class XmlGuard {
  private run = 0;
  private previous = '';
  private started = false;

  constructor(private readonly part: string) {}

  check(chunk: string): void {
    let text = this.previous + chunk;
    if (!this.started) {
      this.started = true;
      text = text.replace(/^\uFEFF?<\?xml\s[^<>]*\?>/, ''); // the XML declaration, the one allowed "<?"
    }
    const markup = /<[!?]/.exec(text);
    if (markup) {
      const what =
        text.startsWith('<!DOCTYPE', markup.index) || text.startsWith('<!ENTITY', markup.index)
          ? 'a DTD or entity declaration (<!DOCTYPE)'
          : text.startsWith('<!--', markup.index)
            ? 'an XML comment'
            : text.startsWith('<![CDATA[', markup.index)
              ? 'a CDATA section'
              : 'a processing instruction or declaration';
      throw new UnreadableWorkbook(`the part ${this.part} holds ${what}, which no workbook writer needs; verify does not read it`);
    }
    const first = chunk.indexOf('<');
    if (this.run + (first < 0 ? chunk.length : first) > READ_LIMITS.xmlRun) {
      throw new UnreadableWorkbook(`the part ${this.part} holds a text, attribute or tag over ${READ_LIMITS.xmlRun} characters`);
    }
    const last = chunk.lastIndexOf('<');
    this.run = last < 0 ? this.run + chunk.length : chunk.length - last - 1;
    // A "<!" or "<?" split across two chunks is seen with the next one.
    this.previous = chunk.slice(-1);
  }
}

/** saxes's "line:column: what." in words: where, and for entities (how XXE comes in) why it is refused. */
function xmlProblem(part: string, message: string): string {
  const m = /^(\d+):(\d+): (.*?)\.?$/s.exec(message);
  const where = m ? ` at line ${m[1]}, column ${m[2]}` : '';
  const what = (m?.[3] ?? message).slice(0, 200);
  if (/entity/i.test(what))
    return `the part ${part} refers to an entity XML does not define${where} (an external entity, XXE, or a damaged file); verify does not read it`;
  return `the part ${part} is not well-formed XML${where}: ${what}`;
}

/**
 * Parses one part, calling `setup` to attach handlers, and yields what `drain` returns after each
 * chunk (rows as they complete). Malformed XML ends in an UnreadableWorkbook naming the part.
 */
export async function* parseXml<T>(
  stream: Readable,
  part: string,
  setup: (parser: XmlParser) => void,
  drain: () => Iterable<T>,
): AsyncGenerator<T> {
  stream.setEncoding('utf8');
  const guard = new XmlGuard(part);
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (error) => {
    throw new UnreadableWorkbook(xmlProblem(part, error.message));
  });
  setup(parser);
  try {
    for await (const chunk of stream) {
      guard.check(chunk as string);
      parser.write(chunk as string);
      yield* drain();
    }
    parser.close();
    yield* drain();
  } finally {
    stream.destroy();
  }
}

/** Parses a whole part for its handlers' side effects. */
export async function consumeXml(stream: Readable, part: string, setup: (parser: XmlParser) => void): Promise<void> {
  for await (const _ of parseXml(stream, part, setup, () => [])) void _;
}
