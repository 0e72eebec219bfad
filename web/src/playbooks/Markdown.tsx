import type { Element } from 'hast';
import { createContext, memo, ReactNode, use, useEffect, useState } from 'react';
import Markdown, { Components } from 'react-markdown';
import { Link } from 'react-router';
import { ApiError } from '../api/client';
import { fileGuid, remarkPlugins, tame, urlTransform } from './markdown';
import { fileObjectUrl } from './playbooks-api';

/** Draws a query block of the page (the embedded query with its Run button), given its text and its index. */
export type QueryRenderer = (text: string, index: number) => ReactNode;

const QueryContext = createContext<QueryRenderer>(() => null);

/**
 * A playbook's markdown, drawn by react-markdown with the playbooks' plugins (markdown.ts): no
 * HTML is ever markup, and `query` draws each query block. The markdown is read again only when it
 * changes; a new `query` (another time range) redraws the query blocks alone, in place.
 */
export function MarkdownView({ markdown, query }: { markdown: string; query: QueryRenderer }) {
  return (
    <QueryContext value={query}>
      <Drawn markdown={markdown} />
    </QueryContext>
  );
}

const Drawn = memo(function Drawn({ markdown }: { markdown: string }) {
  return (
    <Markdown
      remarkPlugins={remarkPlugins}
      remarkRehypeOptions={{ footnoteLabelProperties: { className: ['visually-hidden'] } }}
      urlTransform={urlTransform}
      components={components}
    >
      {tame(markdown)}
    </Markdown>
  );
});

/** The text of a hast element. */
function textOf(node: Element): string {
  return node.children.map((c) => (c.type === 'text' ? c.value : c.type === 'element' ? textOf(c) : '')).join('');
}

function Pre({ node, children }: { node?: Element; children?: ReactNode }) {
  const render = use(QueryContext);
  const code = node?.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const index = code?.properties.dataQuery;
  if (code && typeof index === 'number') return render(textOf(code).trim(), index);
  // The code element's text ends with the line break the conversion adds.
  return <pre className="playbook-pre">{code ? textOf(code).replace(/\n$/, '') : children}</pre>;
}

const components: Components = {
  pre: Pre,
  a({ href, children }) {
    // An address react-markdown judged unsafe is empty: the text stays, nothing to follow.
    if (!href) return <>{children}</>;
    // A path of this console opens in place, an anchor moves within the page; anything else opens in a new tab, telling it nothing of this page.
    if (href.startsWith('/') && !href.startsWith('//')) return <Link to={href}>{children}</Link>;
    if (href.startsWith('#')) return <a href={href}>{children}</a>;
    return (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  },
  img({ src, alt, width, height }) {
    const url = typeof src === 'string' ? src : '';
    const size = { width: width === undefined ? undefined : Number(width), height: height === undefined ? undefined : Number(height) };
    const guid = fileGuid(url);
    if (guid) return <Attachment guid={guid} alt={alt ?? ''} {...size} />;
    if (url.startsWith('data:')) return <img className="playbook-image" src={url} alt={alt} {...size} />;
    // A picture from elsewhere is never loaded (the console's CSP would block it anyway): a link to it.
    const label = `Image: ${alt || url}`;
    return url ? (
      <a href={url} target="_blank" rel="noopener noreferrer">
        {label}
      </a>
    ) : (
      <>{label}</>
    );
  },
};

/**
 * An image attached as a user file, read through the console's session. A file the reader may
 * not read (it was not shared with them, or it is gone) is a note saying so, not a broken image.
 */
function Attachment({ guid, alt, width, height }: { guid: string; alt: string; width?: number; height?: number }) {
  const [url, setUrl] = useState<string>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    const abort = new AbortController();
    let made: string | undefined;
    setUrl(undefined);
    setProblem(undefined);
    fileObjectUrl(guid, abort.signal).then(
      (u) => {
        made = u;
        if (abort.signal.aborted) URL.revokeObjectURL(u);
        else setUrl(u);
      },
      (err: unknown) => {
        if (abort.signal.aborted) return;
        setProblem(
          err instanceof ApiError && err.status === 404
            ? 'This image is a file that is not shared with you (or no longer exists); ask the playbook’s owner to share it with you.'
            : `This image could not be read: ${(err as Error).message}`,
        );
      },
    );
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [guid]);
  if (problem)
    return (
      <span className="playbook-image-missing" role="note">
        <strong>{alt || 'Image'}:</strong> {problem}
      </span>
    );
  if (!url)
    return (
      <span className="playbook-image-loading muted" role="status">
        Loading {alt || 'the image'}…
      </span>
    );
  return <img className="playbook-image" src={url} alt={alt} width={width} height={height} />;
}
