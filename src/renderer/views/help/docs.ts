/**
 * The documentation that ships with the app: the README and docs/*.md, bundled into the renderer
 * at build time with the screenshots they show (nothing is fetched from the network).
 */
import readme from '../../../../README.md?raw';

const pages = import.meta.glob('../../../../docs/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const images = import.meta.glob('../../../../docs/screenshots/*.png', { query: '?url', import: 'default', eager: true }) as Record<
  string,
  string
>;

export interface Doc {
  /** 'readme', or the file name of a page of docs/ without '.md'. */
  id: string;
  title: string;
  text: string;
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
/** The first heading of a page, as plain text. */
const titleOf = (text: string, fallback: string): string => /^#\s+(.+)$/m.exec(text)?.[1]?.replace(/[`*_]/g, '').trim() ?? fallback;

/** The README first, then the pages of docs/ by title. */
export const DOCS: Doc[] = [
  { id: 'readme', title: titleOf(readme, 'README'), text: readme },
  ...Object.entries(pages)
    .map(([path, text]) => {
      const id = baseName(path).replace(/\.md$/, '');
      return { id, title: titleOf(text, id), text };
    })
    .sort((a, b) => a.title.localeCompare(b.title)),
];

const IMAGES = new Map(Object.entries(images).map(([path, url]) => [baseName(path), url]));

/** Where a link of a page goes: another page (and a heading in it), a heading of this page, an https address, or nowhere. */
export type DocLink =
  { kind: 'doc'; id: string; anchor: string | null } | { kind: 'anchor'; anchor: string } | { kind: 'external'; url: string } | null;

export function resolveLink(href: string | undefined): DocLink {
  if (!href) return null;
  if (href.startsWith('#')) return { kind: 'anchor', anchor: href.slice(1) };
  if (/^https:\/\//i.test(href)) return { kind: 'external', url: href };
  const [path = '', anchor = null] = href.split('#');
  const file = baseName(path);
  if (!/\.md$/i.test(file)) return null;
  const id = /^readme\.md$/i.test(file) ? 'readme' : file.replace(/\.md$/i, '');
  return DOCS.some((d) => d.id === id) ? { kind: 'doc', id, anchor } : null;
}

/** The bundled address of an image a page shows (screenshots/x.png), or null when it is not shipped. */
export function imageUrl(src: string | undefined): string | null {
  return src ? (IMAGES.get(baseName(src)) ?? null) : null;
}

/** The id of a heading, as GitHub spells it: lowercase, spaces to hyphens, punctuation dropped. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}
