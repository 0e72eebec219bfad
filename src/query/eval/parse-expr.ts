/** Expressions, by the product's grammar (lowest precedence first):
 *  ?: , ||, &&, |, ^, &, == != ~ !~, < > <= >=, << >>, + -, * / %, unary - !, postfix [] [:] ++ --. */
import { Expr, LValue } from './ast';
import { findBuiltin, UNSUPPORTED_FUNCTIONS } from './builtins';
import { CASTS, UNSUPPORTED_CASTS } from './convert';
import { EToken } from './lexer';
import { ArithOp, CompareOp } from './ops';
import { KEYWORDS, ParserBase } from './parse-base';
import { float, int } from './value';

type Level = { ops: string[]; make: (op: string, a: Expr, b: Expr) => Expr };

const arith = (op: string, a: Expr, b: Expr): Expr => ({ t: 'arith', op: op as ArithOp, a, b });
const cmp = (op: string, a: Expr, b: Expr): Expr => ({ t: 'cmp', op: op as CompareOp, a, b });

const LEVELS: Level[] = [
  { ops: ['||'], make: (_op, a, b) => ({ t: 'or', a, b }) },
  { ops: ['&&'], make: (_op, a, b) => ({ t: 'and', a, b }) },
  { ops: ['|'], make: arith },
  { ops: ['^'], make: arith },
  { ops: ['&'], make: arith },
  { ops: ['==', '!=', '~', '!~'], make: cmp },
  { ops: ['<', '>', '<=', '>='], make: cmp },
  { ops: ['<<', '>>'], make: arith },
  { ops: ['+', '-'], make: arith },
  { ops: ['*', '/', '%'], make: arith },
];

const NOT_SUPPORTED_WORDS: Record<string, string> = {
  while: 'while loops are not supported (use for)',
  do: 'do loops are not supported (use for)',
  func: 'function definitions are not supported',
  function: 'function definitions are not supported',
};

/** Depth of an expression tree: evaluation recurses this deep, so it is bounded. */
const MAX_EXPR_DEPTH = 500;

export class ExprParser extends ParserBase {
  private readonly depths = new WeakMap<Expr, number>();

  /** Records the depth of a new node over its children; fails past MAX_EXPR_DEPTH. */
  private mark(e: Expr, ...children: Expr[]): Expr {
    let d = 0;
    for (const c of children) d = Math.max(d, this.depths.get(c) ?? 1);
    if (d + 1 > MAX_EXPR_DEPTH) this.fail(`expression nested more than ${MAX_EXPR_DEPTH} operators deep`);
    this.depths.set(e, d + 1);
    return e;
  }

  parseExpr(): Expr {
    this.enter();
    const test = this.binary(0);
    let out = test;
    if (this.accept('?')) {
      const yes = this.parseExpr();
      this.expect(':', 'in a ?: expression');
      // the product's grammar allows no ?: in the last part; C does (right to left), and so do we
      const no = this.parseExpr();
      out = this.mark({ t: 'cond', test, yes, no }, test, yes, no);
    }
    this.leave();
    return out;
  }

  private binary(level: number): Expr {
    if (level === LEVELS.length) return this.unary();
    const { ops, make } = LEVELS[level];
    let a = this.binary(level + 1);
    for (let t = this.peek(); t.kind === 'op' && ops.includes(t.text); t = this.peek()) {
      this.next();
      const b = this.binary(level + 1);
      a = this.mark(make(t.text, a, b), a, b);
    }
    return a;
  }

  private unary(): Expr {
    const t = this.peek();
    if (this.accept('-')) {
      this.enter();
      const a = this.unary();
      this.leave();
      if (a.t === 'lit' && a.v !== null && typeof a.v === 'object' && (a.v.k === 'int' || a.v.k === 'float')) {
        return { t: 'lit', v: a.v.k === 'int' ? int(-a.v.v) : float(-a.v.v) };
      }
      return this.mark({ t: 'neg', a }, a);
    }
    if (this.accept('!')) {
      this.enter();
      const a = this.unary();
      this.leave();
      return this.mark({ t: 'not', a }, a);
    }
    if (this.isOp('++') || this.isOp('--')) this.fail(`prefix ${t.text} is not supported (write x${t.text})`);
    return this.postfix();
  }

  private postfix(): Expr {
    let e = this.primary();
    for (;;) {
      const t = this.peek();
      if (this.accept('[')) {
        const index = this.parseExpr();
        if (this.accept(':')) {
          const to = this.parseExpr();
          this.expect(']', 'after a range');
          e = this.mark({ t: 'slice', target: e, from: index, to }, e, index, to);
        } else {
          this.expect(']', 'after an index');
          e = this.mark({ t: 'index', target: e, index }, e, index);
        }
      } else if (this.isOp('++') || this.isOp('--')) {
        this.next();
        e = this.mark({ t: 'postfix', op: t.text as '++' | '--', target: this.toLValue(e, t) }, e);
      } else if (this.isOp('.')) {
        this.fail('the "." scope operator is not supported');
      } else {
        return e;
      }
    }
  }

  /** Turns `x`, `x[i]`, `m[k][j]` into an assignable place. */
  protected toLValue(e: Expr, at: EToken): LValue {
    const path: Expr[] = [];
    let cur = e;
    while (cur.t === 'index') {
      path.unshift(cur.index);
      cur = cur.target;
    }
    if (cur.t !== 'var') this.fail('can only assign to a variable or an indexed variable', at);
    if (cur.ref.scope === 'map' && path.length === 0) this.fail(`cannot assign to map ${cur.ref.name} (assign to ${cur.ref.name}[key])`, at);
    if (cur.ref.scope === 'entry') this.assigned.add(cur.ref.name);
    return { ref: cur.ref, path };
  }

  private primary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case 'int':
        return { t: 'lit', v: int(t.num!) };
      case 'float':
        return { t: 'lit', v: float(t.num!) };
      case 'string':
        return { t: 'lit', v: t.text };
      case 'evref':
        return this.variable(t.text, t);
      case 'ident':
        return this.identifier(t);
      case 'op':
        if (t.text === '(') {
          const e = this.parseExpr();
          this.expect(')', 'to close "("');
          return e;
        }
        if (t.text === '{') return this.arrayLiteral();
        return this.fail(`unexpected ${this.describe(t)}`, t);
      default:
        return this.fail(`unexpected ${this.describe(t)}`, t);
    }
  }

  private arrayLiteral(): Expr {
    const items: Expr[] = [];
    if (!this.accept('}')) {
      do items.push(this.parseExpr());
      while (this.accept(','));
      this.expect('}', 'to close an array');
    }
    return this.mark({ t: 'array', items }, ...items);
  }

  private identifier(t: EToken): Expr {
    const name = t.text;
    if (name === 'true' || name === 'false') return { t: 'lit', v: name === 'true' };
    if (KEYWORDS.has(name)) this.fail(`unexpected keyword "${name}"`, t);
    if (NOT_SUPPORTED_WORDS[name] && this.isOp('(')) this.fail(NOT_SUPPORTED_WORDS[name], t);
    if (!this.isOp('(')) return this.variable(name, t);
    if (UNSUPPORTED_CASTS.has(name)) this.fail(`the ${name}() cast is not supported`, t);
    if (UNSUPPORTED_FUNCTIONS[name]) this.fail(UNSUPPORTED_FUNCTIONS[name], t);
    if (CASTS.has(name)) {
      this.next();
      const a = this.parseExpr();
      this.expect(')', `to close ${name}(`);
      return this.mark({ t: 'cast', name, a }, a);
    }
    return this.call(t);
  }

  private variable(name: string, t: EToken): Expr {
    const ref = this.resolve(name);
    if (ref.scope === 'map' && (this.isOp('=') || this.isOp('+=') || this.isOp('-='))) this.fail(`cannot assign to map ${name} (assign to ${name}[key])`, t);
    if (ref.scope === 'map' && !this.isOp('[')) this.fail(`map ${name} can only be indexed (${name}[key]) or passed to len, keys or has_key`, t);
    if (ref.scope === 'entry') this.read.add(name);
    return { t: 'var', ref };
  }

  private call(t: EToken): Expr {
    const b = findBuiltin(t.text);
    if (!b) this.fail(`unknown function ${t.text}()`, t);
    this.next(); // (
    const args: Expr[] = [];
    if (!this.accept(')')) {
      do args.push(this.argument(args.length, b.nameArg === true, b.mapArg));
      while (this.accept(','));
      this.expect(')', `to close ${t.text}(`);
    }
    if (args.length < b.min || args.length > b.max) {
      const want = b.min === b.max ? `${b.min}` : b.max === Infinity ? `at least ${b.min}` : `${b.min} to ${b.max}`;
      this.fail(`${t.text}() takes ${want} argument${want === '1' ? '' : 's'}, got ${args.length}`, t);
    }
    b.check?.(args, t.pos);
    // append(x, v) changes x in place
    const target = b.name === 'append' ? this.toLValue(args[0], t) : undefined;
    return this.mark({ t: 'call', name: b.name, args, pos: t.pos, target }, ...args);
  }

  /** One argument; the first may be a name (has, delete) or a persistent map (len, keys, has_key). */
  private argument(n: number, nameArg: boolean, mapArg: 'must' | 'may' | undefined): Expr {
    const t = this.peek();
    const simple = (t.kind === 'ident' || t.kind === 'evref') && (this.isOp(',', 1) || this.isOp(')', 1));
    if (n === 0 && simple && nameArg && !KEYWORDS.has(t.text)) {
      this.next();
      return { t: 'lit', v: t.text };
    }
    if (n === 0 && mapArg && simple && t.kind === 'ident') {
      const ref = this.resolve(t.text);
      if (ref.scope === 'map') {
        this.next();
        return { t: 'var', ref };
      }
    }
    const e = this.parseExpr();
    if (n === 0 && mapArg === 'must') this.fail('the first argument must be a map declared with "map name;"', t);
    return e;
  }
}
