/**
 * The markdown of playbooks, read into a tree the console draws with React elements only: no
 * HTML in the text is ever interpreted (a `<script>` or `<img onerror>` shows as the characters
 * typed), links go only to http(s), mailto and this console's own paths, and images only to user
 * files (`/api/files/<GUID>`, as the product's editor inserts them) or inline `data:` pictures.
 * There is no markdown library in the console's dependencies; this is the subset playbooks use
 * (README "Playbooks"): headings, paragraphs, emphasis, strong, inline code, links, images with
 * the product's `=WIDTHxHEIGHT` size, lists, block quotes, rules, and, as in the product, every
 * code block (fenced or indented by four spaces) is a query with a Run button; a paragraph that
 * is one inline code span is a query too. `<pre>…</pre>` is plain preformatted text, as the
 * product documents for text that is not a query.
 *
 * The reader is linear in the text: a 1 MiB playbook full of unmatched `*`, `[` or backquotes
 * reads as fast as prose, and nesting (lists, quotes, emphasis) stops at a fixed depth.
 */

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'em' | 'strong'; c: Inline[] }
  | { t: 'link'; href: string; c: Inline[] }
  | { t: 'image'; src: ImageSource; alt: string; width?: number; height?: number }
  | { t: 'br' };

/** A user file (by GUID) or an inline picture; any other address is left as a link. */
export type ImageSource = { kind: 'file'; guid: string } | { kind: 'data'; url: string };

export type Block =
  | { t: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; c: Inline[] }
  | { t: 'para'; c: Inline[] }
  | { t: 'query'; text: string }
  | { t: 'pre'; text: string }
  | { t: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { t: 'quote'; c: Block[] }
  | { t: 'hr' };

/** How deep lists and quotes nest (and emphasis within emphasis) before the rest reads as text. */
export const MAX_NESTING = 12;

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$/;
const INDENTED = /^(?: {4}|\t)(.*)$/;
const PRE_OPEN = /^ {0,3}<pre>/i;
const BLANK = /^[ \t]*$/;
const FILE_IMAGE = /^\/api\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[?#][^\s]*)?$/i;
const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+$/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** What may start an inline element (or a hard line break); everything between is plain text. */
const SPECIAL = /[\\`[!<*_]| {2}\n/g;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", apos: "'", nbsp: '\u00a0' };

/** Reads a playbook's markdown. */
export function parseMarkdown(src: string): Block[] {
  return blocks(src.replace(/\r\n?/g, '\n').split('\n'), 0);
}

/** A link's address if it is safe to follow (http, https, mailto, or a path or anchor here); else undefined. */
export function safeHref(raw: string): string | undefined {
  const url = raw.trim();
  if (!url) return undefined;
  // Browsers drop tabs, line breaks and controls inside a scheme ("java\tscript:"): judge it as they read it.
  const squeezed = url.replace(/[\u0000-\u0020\u007f]/g, '');
  const scheme = SCHEME.exec(squeezed)?.[1].toLowerCase();
  if (scheme === undefined) return squeezed.startsWith('\\') ? undefined : url;
  return ['http', 'https', 'mailto'].includes(scheme) ? url : undefined;
}

/** The source of an image: a user file by GUID, or an inline picture; anything else is not drawn. */
export function imageSource(raw: string): ImageSource | undefined {
  const url = raw.trim();
  const file = FILE_IMAGE.exec(url);
  if (file) return { kind: 'file', guid: file[1].toLowerCase() };
  if (DATA_IMAGE.test(url)) return { kind: 'data', url };
  return undefined;
}

/** The markdown the editor inserts for an attached image (the product's form, with its optional size). */
export function imageMarkdown(guid: string, alt: string, size?: { width: number; height: number }): string {
  const text = alt.replace(/[[\]\\]/g, '').trim() || 'image';
  return `![${text}](/api/files/${guid}${size ? ` =${size.width}x${size.height}` : ''})`;
}

/** The queries of a playbook, in order (each code block). */
export function queriesOf(tree: Block[]): string[] {
  const out: string[] = [];
  const walk = (bs: Block[]) => {
    for (const b of bs) {
      if (b.t === 'query') out.push(b.text);
      else if (b.t === 'quote') walk(b.c);
      else if (b.t === 'list') b.items.forEach(walk);
    }
  };
  walk(tree);
  return out;
}

/** The user files a playbook shows as images (their GUIDs, each once). */
export function attachmentsOf(tree: Block[]): string[] {
  const out = new Set<string>();
  const inl = (xs: Inline[]) => {
    for (const x of xs) {
      if (x.t === 'image' && x.src.kind === 'file') out.add(x.src.guid);
      else if (x.t === 'em' || x.t === 'strong' || x.t === 'link') inl(x.c);
    }
  };
  const walk = (bs: Block[]) => {
    for (const b of bs) {
      if (b.t === 'heading' || b.t === 'para') inl(b.c);
      else if (b.t === 'quote') walk(b.c);
      else if (b.t === 'list') b.items.forEach(walk);
    }
  };
  walk(tree);
  return [...out];
}

function decodeEntities(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|#39|apos|nbsp);/g, (_, e: string) => ENTITIES[e]);
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line) || PRE_OPEN.test(line);
}

function blocks(lines: string[], depth: number): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (BLANK.test(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
      const body: string[] = [];
      const close = new RegExp(`^ {0,3}${fence[1][0] === '`' ? '`' : '~'}{${fence[1].length},}[ \\t]*$`);
      i++;
      while (i < lines.length && !close.test(lines[i])) body.push(lines[i++]);
      i++;
      out.push({ t: 'query', text: body.join('\n').trim() });
      continue;
    }
    if (PRE_OPEN.test(line)) {
      const text: string[] = [];
      let rest = line.replace(PRE_OPEN, '');
      for (;;) {
        const end = rest.search(/<\/pre>/i);
        if (end >= 0) {
          text.push(rest.slice(0, end));
          break;
        }
        text.push(rest);
        if (++i >= lines.length) break;
        rest = lines[i];
      }
      i++;
      out.push({ t: 'pre', text: decodeEntities(text.join('\n').replace(/^\n/, '')) });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.push({ t: 'heading', level: heading[1].length as 1, c: inlines(heading[2] ?? '', depth) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push({ t: 'hr' });
      i++;
      continue;
    }
    if (depth < MAX_NESTING && QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && !BLANK.test(lines[i])) {
        const q = QUOTE.exec(lines[i]);
        if (!q && startsBlock(lines[i])) break;
        inner.push(q ? q[1] : lines[i]);
        i++;
      }
      out.push({ t: 'quote', c: blocks(inner, depth + 1) });
      continue;
    }
    const item = ITEM.exec(line);
    if (depth < MAX_NESTING && item) {
      const [list, next] = readList(lines, i, depth);
      out.push(list);
      i = next;
      continue;
    }
    const indented = INDENTED.exec(line);
    if (indented) {
      const body: string[] = [];
      while (i < lines.length && (INDENTED.test(lines[i]) || BLANK.test(lines[i]))) body.push(lines[i++].replace(/^(?: {4}|\t)/, ''));
      out.push({ t: 'query', text: body.join('\n').trim() });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !BLANK.test(lines[i]) && !(para.length && startsBlock(lines[i]))) para.push(lines[i++]);
    const text = para.join('\n').trim();
    const lone = /^(`+)([^`][\s\S]*?)\1$/.exec(text);
    if (lone && !lone[2].includes(lone[1])) out.push({ t: 'query', text: lone[2].trim() });
    else out.push({ t: 'para', c: inlines(text, depth) });
  }
  return out;
}

/** A list from line `start`: its items (each read as blocks) and the line after it. */
function readList(lines: string[], start: number, depth: number): [Block, number] {
  const first = ITEM.exec(lines[start])!;
  const ordered = /\d/.test(first[2]);
  const marker = ordered ? first[2].slice(-1) : first[2];
  const items: string[][] = [];
  let i = start;
  let indent = 0;
  while (i < lines.length) {
    const m = ITEM.exec(lines[i]);
    if (m && (ordered ? /\d/.test(m[2]) && m[2].endsWith(marker) : m[2] === marker)) {
      indent = m[1].length + m[2].length + Math.min(Math.max(m[3].length, 1), 4);
      items.push([m[4]]);
      i++;
      continue;
    }
    const cur = items[items.length - 1];
    if (BLANK.test(lines[i])) {
      // A blank line continues the item only when indented content follows.
      const after = lines[i + 1];
      if (after !== undefined && leadingSpaces(after) >= indent && !BLANK.test(after)) {
        cur.push('');
        i++;
        continue;
      }
      break;
    }
    if (m) break;
    if (leadingSpaces(lines[i]) >= Math.min(indent, 4)) cur.push(lines[i].slice(Math.min(indent, leadingSpaces(lines[i]))));
    else if (!startsBlock(lines[i]))
      cur.push(lines[i]); // a lazy continuation of the item's paragraph
    else break;
    i++;
  }
  return [{ t: 'list', ordered, start: ordered ? Math.min(Number.parseInt(first[2], 10), 1e9) : 1, items: items.map((it) => blocks(it, depth + 1)) }, i];
}

function leadingSpaces(s: string): number {
  let n = 0;
  for (const ch of s) {
    if (ch === ' ') n++;
    else if (ch === '\t') n += 4;
    else break;
  }
  return n;
}

/**
 * The inline elements of one block's text. Where each delimiter closes is remembered (Memo), so a
 * text full of unmatched `*`, `[` or backquotes is still read in about one pass.
 */
function inlines(text: string, depth: number): Inline[] {
  return new InlineReader(text, bracketPartners(text), depth).read(0, text.length);
}

/** For each `[`, the index of its `]` (nesting respected), from one pass over the text. */
function bracketPartners(text: string): Map<number, number> {
  const partners = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '[') open.push(i);
    else if (ch === ']' && open.length) partners.set(open.pop()!, i);
  }
  return partners;
}

/**
 * For each delimiter, its first accepted occurrence at or after some index: `at` answers every
 * search from `from` up to `at` (or, -1, every search from `from` on). Whether an occurrence is
 * accepted depends on the delimiter and the text alone, so the readers of one text share it.
 */
type Memo = Map<string, { from: number; at: number }>;

class InlineReader {
  constructor(
    private readonly s: string,
    private readonly brackets: Map<number, number>,
    private readonly depth: number,
    private readonly memo: Memo = new Map(),
  ) {}

  /** The first occurrence of `needle` at or after `from` that `accept`s (always the same test for a needle), if it is before `end`; else -1. */
  private find(needle: string, from: number, end: number, accept: (at: number) => boolean = () => true): number {
    const known = this.memo.get(needle);
    let at: number;
    if (known && from >= known.from && (known.at < 0 || from <= known.at)) at = known.at;
    else {
      at = this.s.indexOf(needle, from);
      while (at >= 0 && !accept(at)) {
        if (known && at >= known.from && (known.at < 0 || at <= known.at)) {
          at = known.at;
          break;
        }
        at = this.s.indexOf(needle, at + 1);
      }
      this.memo.set(needle, { from, at });
    }
    return at >= 0 && at < end ? at : -1;
  }

  read(from: number, end: number): Inline[] {
    const out: Inline[] = [];
    let text = '';
    const flush = () => {
      if (text) out.push({ t: 'text', v: text });
      text = '';
    };
    const s = this.s;
    let i = from;
    while (i < end) {
      const ch = s[i];
      if (ch === '\\' && i + 1 < end && /[!-/:-@[-`{-~]/.test(s[i + 1])) {
        text += s[i + 1];
        i += 2;
        continue;
      }
      if ((ch === '\\' && s[i + 1] === '\n') || (ch === ' ' && s.startsWith('  \n', i))) {
        flush();
        out.push({ t: 'br' });
        i = s.indexOf('\n', i) + 1;
        continue;
      }
      if (ch === '`') {
        let n = 1;
        while (s[i + n] === '`') n++;
        const run = '`'.repeat(n);
        const close = this.find(run, i + n, end, (at) => s[at + n] !== '`' && s[at - 1] !== '`');
        if (close >= 0) {
          flush();
          out.push({
            t: 'code',
            v: s
              .slice(i + n, close)
              .replace(/\n/g, ' ')
              .trim(),
          });
          i = close + n;
        } else {
          text += run;
          i += n;
        }
        continue;
      }
      if (ch === '[' || (ch === '!' && s[i + 1] === '[')) {
        const open = ch === '[' ? i : i + 1;
        const link = this.link(open, end);
        if (link) {
          flush();
          if (ch === '!') {
            const src = imageSource(link.dest);
            const alt = s.slice(open + 1, link.textEnd);
            if (src) out.push({ t: 'image', src, alt, ...link.size });
            else {
              const href = safeHref(link.dest);
              const label: Inline[] = [{ t: 'text', v: `Image: ${alt || link.dest}` }];
              out.push(...(href ? [{ t: 'link' as const, href, c: label }] : label));
            }
          } else {
            const href = safeHref(link.dest);
            const label = this.nested(open + 1, link.textEnd);
            if (href) out.push({ t: 'link', href, c: label });
            else out.push(...label);
          }
          i = link.after;
          continue;
        }
        text += ch;
        i++;
        continue;
      }
      if (ch === '<' && /[hm]/i.test(s[i + 1] ?? '') && /^<(?:https?|mailto):/i.test(s.slice(i, i + 8))) {
        const auto = /^<((?:https?|mailto):[^\s<>]+)>/i.exec(s.slice(i, Math.min(end, i + 2048)));
        if (auto) {
          flush();
          out.push({ t: 'link', href: auto[1], c: [{ t: 'text', v: auto[1] }] });
          i += auto[0].length;
          continue;
        }
      }
      if (ch === '*' || ch === '_') {
        const double = s[i + 1] === ch;
        const delim = double ? ch + ch : ch;
        const leftOk = ch === '*' || i === 0 || !/[\p{L}\p{N}]/u.test(s[i - 1]);
        const opens = leftOk && i + delim.length < end && !/\s/.test(s[i + delim.length]);
        if (opens && this.depth < MAX_NESTING) {
          const close = this.find(
            delim,
            i + delim.length + 1,
            end,
            (at) => !/\s/.test(s[at - 1]) && (double || s[at + 1] !== ch) && (ch === '*' || !/[\p{L}\p{N}]/u.test(s[at + delim.length] ?? '')),
          );
          if (close >= 0) {
            flush();
            out.push({ t: double ? 'strong' : 'em', c: this.nested(i + delim.length, close) });
            i = close + delim.length;
            continue;
          }
        }
        text += delim;
        i += delim.length;
        continue;
      }
      // Plain text up to the next character that may start something.
      SPECIAL.lastIndex = i + 1;
      const next = SPECIAL.exec(s);
      const stop = next && next.index < end ? next.index : end;
      text += s.slice(i, stop);
      i = stop;
    }
    flush();
    return out;
  }

  private nested(from: number, end: number): Inline[] {
    return new InlineReader(this.s, this.brackets, this.depth + 1, this.memo).read(from, end);
  }

  /** `[text](dest "title" =WxH)` from the `[` at `open`: where its text ends, the address, the size, and the index after it. */
  private link(open: number, end: number): { textEnd: number; dest: string; size?: { width?: number; height?: number }; after: number } | undefined {
    const textEnd = this.brackets.get(open);
    if (textEnd === undefined || textEnd >= end || this.s[textEnd + 1] !== '(') return undefined;
    const limit = Math.min(end, textEnd + 4096);
    let close = this.find(')', textEnd + 2, limit);
    // Balanced parentheses belong to the address (`https://en.example/wiki/A_(b)`).
    const count = (ch: string) => this.s.slice(textEnd + 2, close).split(ch).length - 1;
    while (close >= 0 && count('(') > count(')')) close = this.find(')', close + 1, limit);
    if (close < 0) return undefined;
    const inner = this.s.slice(textEnd + 2, close).trim();
    const m = /^(<[^>]*>|\S+)(?:\s+"[^"]*")?(?:\s+=(\d{1,5})?x(\d{1,5})?)?\s*$/.exec(inner);
    if (!m) return undefined;
    const dest = m[1].startsWith('<') ? m[1].slice(1, -1) : m[1];
    const px = (v?: string) => (v ? Math.min(Number(v), 4000) : undefined);
    const size = m[2] || m[3] ? { width: px(m[2]), height: px(m[3]) } : undefined;
    return { textEnd, dest, size, after: close + 1 };
  }
}
