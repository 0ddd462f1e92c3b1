import { isValidElement, useEffect, useMemo, useRef, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { call } from '../../api';
import { useApp } from '../../stores/app';
import { DOCS, imageUrl, resolveLink, slug } from './docs';

/** The plain text of rendered children (for heading ids). */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return '';
}

/**
 * Help: the README and docs/ as they ship with this build, rendered in the app (no raw HTML, links
 * between pages followed in the app, https links opened outside it, screenshots from the bundle).
 */
export function HelpView({ doc, anchor }: { doc?: string | undefined; anchor?: string | undefined }) {
  const navigate = useApp((s) => s.navigate);
  const setAbout = useApp((s) => s.setAbout);
  const current = DOCS.find((d) => d.id === doc) ?? DOCS[0]!;
  const article = useRef<HTMLElement>(null);
  const scroller = useRef<HTMLDivElement>(null);

  const scrollTo = (id: string) => article.current?.querySelector(`[id="${CSS.escape(id)}"]`)?.scrollIntoView();
  useEffect(() => {
    if (anchor) scrollTo(anchor);
    else if (scroller.current) scroller.current.scrollTop = 0;
  }, [current.id, anchor]);

  const components = useMemo<Components>(() => {
    const heading =
      (Tag: 'h1' | 'h2' | 'h3' | 'h4') =>
      ({ children }: { children?: ReactNode }) => <Tag id={slug(textOf(children))}>{children}</Tag>;
    return {
      h1: heading('h1'),
      h2: heading('h2'),
      h3: heading('h3'),
      h4: heading('h4'),
      a: ({ href, children }) => {
        const link = resolveLink(href);
        if (!link) return <span>{children}</span>;
        return (
          <a
            href={href}
            title={link.kind === 'external' ? `${link.url} (opens outside Attest)` : undefined}
            onClick={(event) => {
              event.preventDefault();
              if (link.kind === 'external') void call('openExternal', { url: link.url });
              else if (link.kind === 'anchor') scrollTo(link.anchor);
              else navigate({ view: 'help', doc: link.id, anchor: link.anchor ?? undefined });
            }}
          >
            {children}
          </a>
        );
      },
      img: ({ src, alt }) => {
        const url = imageUrl(typeof src === 'string' ? src : undefined);
        return url ? <img src={url} alt={alt ?? ''} loading="lazy" /> : <span className="muted">[{alt}]</span>;
      },
    };
  }, [navigate]);

  return (
    <div ref={scroller} className="content help" data-screen="help">
      <aside className="stack" aria-label="Documentation">
        <h3 style={{ margin: 0 }}>Documentation</h3>
        <div>
          {DOCS.map((d) => (
            <button
              key={d.id}
              className={`facet ${d.id === current.id ? 'active' : ''}`}
              aria-current={d.id === current.id ? 'page' : undefined}
              onClick={() => navigate({ view: 'help', doc: d.id })}
              data-testid={`doc-${d.id}`}
            >
              <span>{d.title}</span>
            </button>
          ))}
        </div>
        <p className="muted small">The documentation of this version of Attest, as it ships with the app.</p>
        <button className="btn" onClick={() => setAbout(true)}>
          About Attest
        </button>
      </aside>
      <article ref={article} className="doc" data-doc={current.id}>
        <Markdown remarkPlugins={[remarkGfm]} components={components} skipHtml>
          {current.text}
        </Markdown>
      </article>
    </div>
  );
}
