import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { READ_LIMITS, UnreadableWorkbook } from './zip';

/**
 * XML parts read with saxes, guarded for `attest verify`: no DTD, entity declaration, comment,
 * CDATA section or processing instruction (no writer of workbooks needs one; a DTD is how XXE
 * and entity bombs come in), and no text, attribute or tag longer than READ_LIMITS.xmlRun
 * characters, so the parser never buffers more than that.
 */

/** Local name of a qualified XML name ("x:row" -> "row"). */
export const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

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
  setup: (parser: SaxesParser) => void,
  drain: () => Iterable<T>,
): AsyncGenerator<T> {
  stream.setEncoding('utf8');
  const guard = new XmlGuard(part);
  const parser = new SaxesParser();
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
export async function consumeXml(stream: Readable, part: string, setup: (parser: SaxesParser) => void): Promise<void> {
  for await (const _ of parseXml(stream, part, setup, () => [])) void _;
}
