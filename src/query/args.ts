/** Helpers for module argument parsing: flags, positional words, `name [op value] [as alias]` items. */
import { Token } from './lexer';
import { InlineFilter, isFilterOp } from './filter';
import { ModuleArgError } from './types';

export type FlagSpec = Record<string, 'bool' | 'value'>;
export type Flags = Record<string, string | true>;

export class ArgReader {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  get done(): boolean {
    return this.i >= this.tokens.length;
  }

  peek(): Token | undefined {
    return this.tokens[this.i];
  }

  next(): Token | undefined {
    return this.tokens[this.i++];
  }

  /** True (and consumes) when the next token is the unquoted word `w`. */
  accept(w: string): boolean {
    const t = this.peek();
    if (t && t.kind === 'word' && t.value === w) {
      this.i++;
      return true;
    }
    return false;
  }

  /** Reads a word or quoted string; throws `missing <what>` otherwise. */
  value(what: string): string {
    const t = this.next();
    if (!t || (t.kind !== 'word' && t.kind !== 'string')) throw new ModuleArgError(`missing ${what}`);
    return t.value;
  }

  /** Consumes leading `-flag [value]` tokens. Unknown flags are errors. */
  flags(spec: FlagSpec): Flags {
    const out: Flags = {};
    for (let t = this.peek(); t && t.kind === 'word' && !t.quoted && /^-[A-Za-z]/.test(t.value); t = this.peek()) {
      const name = t.value.slice(1);
      const kind = spec[name];
      if (!kind) throw new ModuleArgError(`unknown flag ${t.value}`);
      this.i++;
      out[name] = kind === 'bool' ? true : this.value(`value for flag ${t.value}`);
    }
    return out;
  }

  /** Fails if any tokens remain. */
  end(): void {
    const t = this.peek();
    if (t) throw new ModuleArgError(`unexpected argument "${t.value}"`);
  }
}

export interface ExtractItem {
  /** what to extract (path, key, field index, or group name) */
  source: string;
  /** EV name to write */
  name: string;
  filter?: InlineFilter;
}

/**
 * Reads extraction items `source [op value] [as name]` (either order of filter and alias)
 * until the tokens are exhausted. `defaultName` derives the EV name from the source.
 */
export function readExtractItems(r: ArgReader, defaultName: (src: string) => string): ExtractItem[] {
  const items: ExtractItem[] = [];
  while (!r.done) {
    const t = r.next()!;
    if (t.kind !== 'word' && t.kind !== 'string') throw new ModuleArgError(`unexpected "${t.value}"`);
    const item: ExtractItem = { source: t.value, name: defaultName(t.value) };
    for (let more = true; more;) {
      more = false;
      const p = r.peek();
      if (p && p.kind === 'op' && !item.filter) {
        if (!isFilterOp(p.value)) throw new ModuleArgError(`invalid filter operator "${p.value}"`);
        r.next();
        item.filter = { op: p.value, value: r.value(`value after ${t.value}${p.value}`) };
        more = true;
      } else if (p && p.kind === 'word' && p.value === 'as') {
        r.next();
        item.name = r.value(`name after "as"`);
        more = true;
      }
    }
    items.push(item);
  }
  return items;
}
