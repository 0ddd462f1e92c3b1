import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { isSafeExternalUrl } from '../../shared/external-url';
import { call } from '../api';

/**
 * How a tenant's Markdown renders: no raw HTML (dropped, never parsed), links only when they are
 * safe https addresses and then opened outside the app, images as their alt text (the app loads no
 * remote content).
 */
const components: Components = {
  a: ({ href, children }) => {
    if (!href || !isSafeExternalUrl(href)) return <span title={href ? `Link not opened: ${href}` : undefined}>{children}</span>;
    return (
      <a
        href={href}
        title={`${href} (opens outside Attest)`}
        onClick={(event) => {
          event.preventDefault();
          void call('openExternal', { url: href });
        }}
      >
        {children}
      </a>
    );
  },
  img: ({ alt }) => <span className="muted">[{alt || 'image'}]</span>,
};

/** A field the tenant writes in Markdown (a campaign's or template's description, review instructions, insights), rendered. */
export function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown" data-testid="markdown">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {text}
      </Markdown>
    </div>
  );
}
