import { Fragment, ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';
import { Block, Inline } from './markdown';
import { fileObjectUrl } from './playbooks-api';

/**
 * A playbook's markdown tree (markdown.ts) drawn with React elements: every text is a text node,
 * so nothing in a playbook is ever read as HTML. `query` draws a query block (the embedded query
 * with its Run button).
 */
export function MarkdownView({ tree, query }: { tree: Block[]; query(text: string, index: number): ReactNode }) {
  let n = 0;
  const blocks = (bs: Block[]): ReactNode[] =>
    bs.map((b, i) => {
      switch (b.t) {
        case 'heading': {
          const H = `h${Math.min(b.level + 1, 6)}` as 'h2';
          return <H key={i}>{inlines(b.c)}</H>;
        }
        case 'para':
          return <p key={i}>{inlines(b.c)}</p>;
        case 'query':
          return <Fragment key={i}>{query(b.text, n++)}</Fragment>;
        case 'pre':
          return (
            <pre key={i} className="playbook-pre">
              {b.text}
            </pre>
          );
        case 'list':
          return b.ordered ? (
            <ol key={i} start={b.start}>
              {b.items.map((it, j) => (
                <li key={j}>{blocks(it)}</li>
              ))}
            </ol>
          ) : (
            <ul key={i}>
              {b.items.map((it, j) => (
                <li key={j}>{blocks(it)}</li>
              ))}
            </ul>
          );
        case 'quote':
          return <blockquote key={i}>{blocks(b.c)}</blockquote>;
        case 'hr':
          return <hr key={i} />;
      }
    });
  return <>{blocks(tree)}</>;
}

function inlines(xs: Inline[]): ReactNode[] {
  return xs.map((x, i) => {
    switch (x.t) {
      case 'text':
        return <Fragment key={i}>{x.v}</Fragment>;
      case 'code':
        return <code key={i}>{x.v}</code>;
      case 'em':
        return <em key={i}>{inlines(x.c)}</em>;
      case 'strong':
        return <strong key={i}>{inlines(x.c)}</strong>;
      case 'br':
        return <br key={i} />;
      case 'link':
        // A path of this console opens in place; anything else in a new tab, telling it nothing of this page.
        return x.href.startsWith('/') && !x.href.startsWith('//') ? (
          <Link key={i} to={x.href}>
            {inlines(x.c)}
          </Link>
        ) : (
          <a key={i} href={x.href} target="_blank" rel="noopener noreferrer">
            {inlines(x.c)}
          </a>
        );
      case 'image':
        return x.src.kind === 'data' ? (
          <img key={i} className="playbook-image" src={x.src.url} alt={x.alt} width={x.width} height={x.height} />
        ) : (
          <Attachment key={i} guid={x.src.guid} alt={x.alt} width={x.width} height={x.height} />
        );
    }
  });
}

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
