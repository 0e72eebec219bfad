/**
 * What the playbooks add to markdown. The markdown itself is read by react-markdown with
 * remark-gfm (CommonMark and GitHub's tables, strikethrough, task lists, autolinks, footnotes),
 * without rehype-raw: HTML in a playbook is never markup (a `<script>` or `<img onerror>` shows as
 * the characters typed), and links go only where react-markdown's `defaultUrlTransform` allows
 * (http(s), mailto, paths here; never `javascript:`). On top of it, `remarkPlaybook`:
 *   - makes every code block (fenced or indented) a query with a Run button, as the product does,
 *     and a paragraph that is one inline code span a query too;
 *   - reads `<pre>…</pre>` as plain preformatted text, as the product documents for text that is
 *     not a query;
 *   - reads the product's image size, `![alt](/api/files/<GUID> =WIDTHxHEIGHT)` (not CommonMark);
 *   - draws a heading one level down (the page's title is the one h1);
 *   - flattens lists and quotes nested deeper than MAX_NESTING into plain text.
 * Before it is read, `tame` turns the text on which micromark's time would grow with the square
 * of its length (dense markup in one paragraph, thousands of containers on one line) into text
 * that reads in linear time.
 */
import type { Nodes as HastNodes, Root as HastRoot } from 'hast';
import type { Html, Image, Nodes, Parents, Root, RootContent, Text } from 'mdast';
import Markdown, { defaultUrlTransform, UrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** How deep lists and quotes nest before the rest reads as text (drawing a deeper tree could exhaust the stack). */
export const MAX_NESTING = 12;

const FILE_IMAGE = /^\/api\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[?#][^\s]*)?$/i;
const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+$/;
/** The product's sized image, which CommonMark leaves as text: `![alt](address "title" =WxH)`. */
const SIZED_IMAGE = /!\[([^\]\n]*)\]\(\s*<?([^\s<>()]+)>?(?:\s+"[^"\n]*")?\s+=(\d{1,5})?x(\d{1,5})?\s*\)/g;
const PRE = /^ {0,3}<pre>\n?([\s\S]*?)(?:<\/pre>([\s\S]*))?$/i;
/** The nodes that hold blocks (where `<pre>` starts a block, not a tag inside a line). */
const FLOW = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", apos: "'", nbsp: '\u00a0' };

/** The user file (its GUID, lower case) an image address names, if it names one. */
export function fileGuid(url: string): string | undefined {
  return FILE_IMAGE.exec(url.trim())?.[1].toLowerCase();
}

/** react-markdown's URL safety, plus inline `data:` pictures (the console's CSP allows them; nothing else). */
export const urlTransform: UrlTransform = (url, key, node) => (key === 'src' && node.tagName === 'img' && DATA_IMAGE.test(url) ? url : defaultUrlTransform(url));

/** The markdown the editor inserts for an attached image (the product's form, with its optional size). */
export function imageMarkdown(guid: string, alt: string, size?: { width: number; height: number }): string {
  const text = alt.replace(/[[\]\\]/g, '').trim() || 'image';
  return `![${text}](/api/files/${guid}${size ? ` =${size.width}x${size.height}` : ''})`;
}

/**
 * Above this many markup characters (`[ ] * _ \` \\ & < ! ~`) in one paragraph, the paragraph is
 * drawn as the text typed, preformatted, not read as markdown: micromark's time grows with the
 * square of the markup in one paragraph (20,000 `[a]` in a row take seconds, 100,000 minutes),
 * and a playbook must not freeze its readers' page.
 */
export const MAX_MARKUP = 2000;
const MARKUP = /[[\]*_`\\&<!~]/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** One container marker at the start of a line (a quote's `>`, a list item's bullet or number). */
const CONTAINER = /[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$))/y;

/**
 * The markdown made safe to read in time proportional to its length, changing only hostile text
 * (outside fenced code): a line that opens more than MAX_NESTING quotes or lists has its next
 * marker escaped (micromark's time also grows with the square of the depth of one line: 128,000
 * `> ` take a minute), and each run of lines between blank lines with more than MAX_MARKUP markup
 * characters becomes `<pre>…</pre>` of its text (escaped, so that it ends where it should), which
 * remarkPlaybook draws as plain preformatted text.
 */
export function tame(markdown: string): string {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  let start = -1;
  const close = (end: number) => {
    const run = start >= 0 ? lines.slice(start, end) : [];
    if (run.reduce((n, l) => n + (l.match(MARKUP)?.length ?? 0), 0) > MAX_MARKUP) {
      const indent = /^[ \t]*/.exec(run[0])![0];
      const text = run.map((l) => l.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
      // The same number of lines, so that the indices of this pass stay right.
      lines.splice(start, end - start, `${indent}<pre>${text.join('\n')}</pre>`, ...Array<string>(end - start - 1).fill(''));
    }
    start = -1;
  };
  lines.forEach((line, i) => {
    const f = FENCE.exec(line)?.[1];
    if (fence) {
      if (f && f[0] === fence[0] && f.length >= fence.length && !line.slice(line.indexOf(f) + f.length).trim()) fence = undefined;
    } else if (f) {
      close(i);
      fence = f;
    } else if (!line.trim()) close(i);
    else {
      lines[i] = capNesting(line);
      if (start < 0) start = i;
    }
  });
  close(lines.length);
  return lines.join('\n');
}

/** The line with the marker that would open a container deeper than MAX_NESTING escaped (read as text). */
function capNesting(line: string): string {
  CONTAINER.lastIndex = 0;
  for (let n = 1, m = CONTAINER.exec(line); m; n++, m = CONTAINER.exec(line)) {
    if (n > MAX_NESTING) {
      const at = m.index + m[0].length - 1;
      return `${line.slice(0, at)}\\${line.slice(at)}`;
    }
  }
  return line;
}

/** The remark plugin of playbooks (see above). A query's code element carries `data-query`, its index in the page. */
export function remarkPlaybook() {
  return (tree: Root) => {
    const QUERY = { hProperties: { dataQuery: -1 } };
    const asQuery = (value: string): RootContent => ({ type: 'code', value: value.trim(), data: structuredClone(QUERY) });
    // Depth-first, without recursion (a hostile text may nest thousands deep).
    const stack: { node: Parents; depth: number }[] = [{ node: tree, depth: 0 }];
    while (stack.length) {
      const { node, depth } = stack.pop()!;
      const out: RootContent[] = [];
      for (const child of node.children as RootContent[]) {
        if (child.type === 'code') out.push(asQuery(child.value));
        else if (child.type === 'paragraph' && child.children.length === 1 && child.children[0].type === 'inlineCode') out.push(asQuery(child.children[0].value));
        else if (child.type === 'html' && FLOW.has(node.type) && PRE.test(child.value)) out.push(...preformatted(child));
        else if (child.type === 'text' && child.value.includes('](')) out.push(...sizedImages(child));
        else if ((child.type === 'list' || child.type === 'blockquote') && depth >= MAX_NESTING)
          out.push({ type: 'paragraph', children: [{ type: 'text', value: textOf(child) }] });
        else {
          if (child.type === 'heading') child.data = { ...child.data, hName: `h${Math.min(child.depth + 1, 6)}` };
          out.push(child);
        }
      }
      node.children = out as typeof node.children;
      for (const c of out) if ('children' in c) stack.push({ node: c, depth: depth + (c.type === 'list' || c.type === 'blockquote' ? 1 : 0) });
    }
    // Then the queries are numbered in reading order.
    let queries = 0;
    for (const n of inOrder(tree)) if (n.type === 'code' && n.data?.hProperties?.dataQuery === -1) n.data.hProperties.dataQuery = queries++;
  };
}

/** A node and all it holds, in document order (without recursion). */
function* inOrder(node: Nodes): Generator<Nodes> {
  const stack: Nodes[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    yield n;
    if ('children' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
}

/** `<pre>…</pre>`: its text as typed (the few entities HTML authors write decoded), then whatever follows `</pre>` on its line. */
function preformatted(html: Html): RootContent[] {
  const [, body, after] = PRE.exec(html.value)!;
  const text = body.replace(/&(lt|gt|amp|quot|#39|apos|nbsp);/g, (_, e: string) => ENTITIES[e]);
  const pre: RootContent = { type: 'code', value: text };
  return after?.trim() ? [pre, { type: 'paragraph', children: [{ type: 'text', value: after.trim() }] }] : [pre];
}

/** A text with the product's sized images in it, as text and image nodes. */
function sizedImages(text: Text): (Text | Image)[] {
  const out: (Text | Image)[] = [];
  let last = 0;
  for (const m of text.value.matchAll(SIZED_IMAGE)) {
    if (m.index > last) out.push({ type: 'text', value: text.value.slice(last, m.index) });
    const px = (v?: string) => (v ? Math.min(Number(v), 4000) : undefined);
    out.push({ type: 'image', url: m[2], alt: m[1], data: { hProperties: { width: px(m[3]), height: px(m[4]) } } });
    last = m.index + m[0].length;
  }
  if (last === 0) return [text];
  if (last < text.value.length) out.push({ type: 'text', value: text.value.slice(last) });
  return out;
}

/** The text of a node and all it holds. */
function textOf(node: Nodes): string {
  const parts: string[] = [];
  for (const n of inOrder(node)) if ('value' in n) parts.push(n.value);
  return parts.join(' ');
}

/** The remark plugins of a playbook, in order. */
export const remarkPlugins = [remarkGfm, remarkPlaybook];

/**
 * The user files a playbook shows as images (their GUIDs, each once), read by the same parser
 * that draws it. `Markdown` is react-markdown's synchronous function (no hooks): called here
 * only to run the plugins, its drawing is dropped.
 */
export function attachmentsOf(markdown: string): string[] {
  const found = new Set<string>();
  const collect = () => (tree: HastRoot) => {
    const stack: HastNodes[] = [tree];
    while (stack.length) {
      const n = stack.pop()!;
      const guid = n.type === 'element' && n.tagName === 'img' ? fileGuid(String(n.properties.src ?? '')) : undefined;
      if (guid) found.add(guid);
      if ('children' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  };
  Markdown({ children: tame(markdown), remarkPlugins, rehypePlugins: [collect] });
  return [...found];
}
