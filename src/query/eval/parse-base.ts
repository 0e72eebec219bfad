/** Token cursor and name resolution shared by the expression and statement parsers. */
import { VarRef } from './ast';
import { EvalSyntaxError } from './errors';
import { EToken } from './lexer';

export const KEYWORDS = new Set(['if', 'else', 'for', 'break', 'continue', 'return', 'case', 'default', 'switch', 'var', 'map', 'true', 'false']);

export class ParserBase {
  protected i = 0;
  /** entry variables by name -> slot */
  protected readonly entrySlots = new Map<string, number>();
  protected readonly varSlots = new Map<string, number>();
  protected readonly mapSlots = new Map<string, number>();
  readonly assigned = new Set<string>();
  readonly read = new Set<string>();
  /** nesting of expressions and statements, bounded so deep programs cannot exhaust the stack */
  protected depth = 0;
  static readonly MAX_DEPTH = 200;

  constructor(protected toks: EToken[]) {}

  protected peek(ahead = 0): EToken {
    return this.toks[Math.min(this.i + ahead, this.toks.length - 1)];
  }

  protected next(): EToken {
    const t = this.peek();
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  protected isOp(text: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'op' && t.text === text;
  }

  protected isWord(text: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'ident' && t.text === text;
  }

  protected accept(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.i++;
    return true;
  }

  protected fail(problem: string, t: EToken = this.peek()): never {
    throw new EvalSyntaxError(problem, t.pos);
  }

  protected describe(t: EToken): string {
    if (t.kind === 'eof') return 'the end of the program';
    if (t.kind === 'string') return `string "${t.text}"`;
    return `"${t.text}"`;
  }

  protected expect(op: string, context: string): EToken {
    const t = this.peek();
    if (!this.accept(op)) this.fail(`expected "${op}" ${context}, found ${this.describe(t)}`, t);
    return t;
  }

  protected enter(): void {
    if (++this.depth > ParserBase.MAX_DEPTH) this.fail(`program nested more than ${ParserBase.MAX_DEPTH} levels deep`);
  }

  protected leave(): void {
    this.depth--;
  }

  /** Resolves a name: a declared persistent var or map, else an entry variable (EV). */
  protected resolve(name: string): VarRef {
    const v = this.varSlots.get(name);
    if (v !== undefined) return { scope: 'var', slot: v, name };
    const m = this.mapSlots.get(name);
    if (m !== undefined) return { scope: 'map', slot: m, name };
    let s = this.entrySlots.get(name);
    if (s === undefined) {
      s = this.entrySlots.size;
      this.entrySlots.set(name, s);
    }
    return { scope: 'entry', slot: s, name };
  }

  protected declare(kind: 'var' | 'map', name: string, t: EToken): VarRef {
    if (this.varSlots.has(name) || this.mapSlots.has(name)) this.fail(`${name} is declared twice`, t);
    const table = kind === 'var' ? this.varSlots : this.mapSlots;
    const slot = table.size;
    table.set(name, slot);
    return { scope: kind, slot, name };
  }

  protected names(table: Map<string, number>): string[] {
    const out: string[] = [];
    for (const [n, s] of table) out[s] = n;
    return out;
  }
}
