/**
 * The product's autoextractor file (configuration/autoextractors.md): TOML with one
 * `[[extraction]]` table per definition and the keys tag, tags, name, desc, module, params, args.
 * Only that much TOML is read: basic "..." and literal '...' strings (and their triple-quoted
 * multi-line forms), arrays of strings, comments. A repeated `tag` adds a tag (older product
 * files write one line per tag); anything else is refused with its line number.
 */

export interface AxFileEntry {
  tags: string[];
  name: string;
  desc: string;
  module: string;
  params: string;
  args: string;
}

export class AxFileError extends Error {}

const KEYS = new Set(['tag', 'tags', 'name', 'desc', 'module', 'params', 'args']);
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };

class Reader {
  i = 0;
  constructor(private readonly s: string) {}

  /** Where the string being read started (its unterminated end is reported there). */
  private from = -1;

  lineAt(at: number): number {
    let n = 1;
    for (let k = 0; k < at && k < this.s.length; k++) if (this.s[k] === '\n') n++;
    return n;
  }

  fail(msg: string, at = this.i): never {
    throw new AxFileError(`line ${this.lineAt(at)}: ${msg}`);
  }

  unterminated(): never {
    return this.fail('unterminated string', this.from);
  }

  get done(): boolean {
    return this.i >= this.s.length;
  }

  peek(n = 0): string {
    return this.s[this.i + n] ?? '';
  }

  startsWith(t: string): boolean {
    return this.s.startsWith(t, this.i);
  }

  /** Spaces and tabs, and comments; newlines too when `lines`. */
  skip(lines: boolean): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || (lines && (c === '\n' || c === '\r'))) this.i++;
      else if (c === '#') while (!this.done && this.peek() !== '\n') this.i++;
      else return;
    }
  }

  endOfLine(): void {
    this.skip(false);
    if (this.done) return;
    if (this.peek() === '\r') this.i++;
    if (this.peek() !== '\n') this.fail(`unexpected "${this.peek()}" after the value`);
    this.i++;
  }

  key(): string {
    const m = /^[A-Za-z0-9_-]+/.exec(this.s.slice(this.i, this.i + 64));
    if (!m) this.fail(`expected a key, found "${this.peek()}"`);
    this.i += m[0].length;
    return m[0];
  }

  string(): string {
    this.from = this.i;
    if (this.startsWith('"""')) return this.basic(true);
    if (this.startsWith("'''")) return this.literal(true);
    if (this.peek() === '"') return this.basic(false);
    if (this.peek() === "'") return this.literal(false);
    return this.fail('values are strings: "..." or \'...\'');
  }

  private literal(multi: boolean): string {
    const q = multi ? "'''" : "'";
    this.i += q.length;
    if (multi && this.peek() === '\n') this.i++;
    const end = this.s.indexOf(q, this.i);
    if (end < 0) this.unterminated();
    const v = this.s.slice(this.i, end);
    if (!multi && v.includes('\n')) this.unterminated();
    this.i = end + q.length;
    return v;
  }

  private basic(multi: boolean): string {
    this.i += multi ? 3 : 1;
    if (multi && this.peek() === '\n') this.i++;
    let out = '';
    for (;;) {
      if (this.done) this.unterminated();
      if (multi ? this.startsWith('"""') : this.peek() === '"') {
        this.i += multi ? 3 : 1;
        return out;
      }
      const c = this.s[this.i++];
      if (c === '\n' && !multi) this.unterminated();
      if (c !== '\\') {
        out += c;
        continue;
      }
      const x = this.s[this.i++] ?? '';
      if (x in ESCAPES) out += ESCAPES[x];
      else if (x === 'u' || x === 'U') {
        const len = x === 'u' ? 4 : 8;
        const hex = this.s.slice(this.i, this.i + len);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) this.fail(`invalid escape \\${x}${hex}`);
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) this.fail(`invalid escape \\${x}${hex}`);
        out += String.fromCodePoint(cp);
        this.i += len;
      } else if (multi && (x === '\n' || x === '\r' || x === ' ' || x === '\t')) {
        // line-ending backslash: trims the whitespace that follows
        while (/[\s]/.test(this.peek())) this.i++;
      } else this.fail(`invalid escape \\${x} (a single-quoted string keeps backslashes as they are)`);
    }
  }

  array(): string[] {
    this.i++; // [
    const out: string[] = [];
    for (;;) {
      this.skip(true);
      if (this.peek() === ']') {
        this.i++;
        return out;
      }
      out.push(this.string());
      this.skip(true);
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== ']') this.fail('expected "," or "]" in the array');
    }
  }
}

/** The definitions of a file, in order; AxFileError names the line of the first problem. */
export function parseAxFile(text: string, maxEntries: number): AxFileEntry[] {
  const r: Reader = new Reader(text.replace(/^\ufeff/, ''));
  const out: AxFileEntry[] = [];
  let cur: (Partial<AxFileEntry> & { tags: string[] }) | undefined;
  const seen = new Set<string>();
  for (;;) {
    r.skip(true);
    if (r.done) break;
    if (r.startsWith('[[')) {
      r.i += 2;
      r.skip(false);
      const name = r.key();
      r.skip(false);
      if (!r.startsWith(']]')) r.fail('expected "]]"');
      r.i += 2;
      if (name !== 'extraction') r.fail(`unknown table [[${name}]]: definitions are [[extraction]] tables`);
      if (out.length >= maxEntries) r.fail(`more than ${maxEntries} definitions in one file`);
      cur = { tags: [] };
      out.push(cur as AxFileEntry);
      seen.clear();
      r.endOfLine();
      continue;
    }
    if (r.peek() === '[') r.fail('definitions are [[extraction]] tables');
    const key = r.key();
    if (!cur) r.fail(`"${key}" before the first [[extraction]]`);
    if (!KEYS.has(key)) r.fail(`unknown key "${key}" (keys: ${[...KEYS].join(', ')})`);
    r.skip(false);
    if (r.peek() !== '=') r.fail(`expected "=" after ${key}`);
    r.i++;
    r.skip(false);
    if (key === 'tags') {
      if (r.peek() !== '[') r.fail('tags is an array of strings: tags = ["a", "b"]');
      cur.tags.push(...r.array());
    } else {
      const v = r.string();
      if (key === 'tag') cur.tags.push(v);
      else {
        if (seen.has(key)) r.fail(`${key} given twice`);
        seen.add(key);
        (cur as Record<string, unknown>)[key] = v;
      }
    }
    r.endOfLine();
  }
  return out.map((e) => ({ tags: e.tags, name: e.name ?? '', desc: e.desc ?? '', module: e.module ?? '', params: e.params ?? '', args: e.args ?? '' }));
}

/** A TOML string: literal ('...', backslashes kept, as the product writes) unless it holds a quote or a control character. */
function tomlString(v: string): string {
  if (!/['\u0000-\u001f\u007f]/.test(v)) return `'${v}'`;
  const escaped = v.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    const named: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

/** The file of `entries`, readable by parseAxFile and by the product (one tag, then `tags` for more). */
export function encodeAxFile(entries: AxFileEntry[]): string {
  return entries
    .map((e) => {
      const lines = ['[[extraction]]', `  tag = ${tomlString(e.tags[0] ?? '')}`];
      if (e.tags.length > 1) lines.push(`  tags = [${e.tags.slice(1).map(tomlString).join(', ')}]`);
      lines.push(`  module = ${tomlString(e.module)}`, `  params = ${tomlString(e.params)}`);
      if (e.args) lines.push(`  args = ${tomlString(e.args)}`);
      if (e.name) lines.push(`  name = ${tomlString(e.name)}`);
      if (e.desc) lines.push(`  desc = ${tomlString(e.desc)}`);
      return lines.join('\n') + '\n';
    })
    .join('\n');
}
