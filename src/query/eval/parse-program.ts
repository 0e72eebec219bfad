/** Statements and whole programs:
 *  Program = "(" Program ")" | Expression (a filter) | [ var/map declarations ] statements. */
import { Expr, ProgramAst, Stmt, VarDecl } from './ast';
import { EToken, lexEval } from './lexer';
import { ExprParser } from './parse-expr';

class ProgramParser extends ExprParser {
  private loops = 0;
  private switches = 0;

  program(): ProgramAst {
    this.unwrapParens();
    const decls = this.declarations();
    let filter: Expr | undefined;
    let body: Stmt[] = [];
    if (decls.length === 0) filter = this.tryFilter();
    if (!filter) {
      while (this.peek().kind !== 'eof') body.push(this.statement());
    }
    if (!filter && decls.length === 0 && body.length === 0) this.fail('empty program');
    if (filter) body = [];
    return {
      decls,
      body,
      filter,
      slots: this.names(this.entrySlots),
      vars: this.names(this.varSlots),
      maps: this.names(this.mapSlots),
      assigned: this.assigned,
      read: this.read,
    };
  }

  /** `( program )` with the closing parenthesis at the very end: the inside is the program. */
  private unwrapParens(): void {
    if (!this.isOp('(')) return;
    let depth = 0;
    for (let j = 0; j < this.toks.length; j++) {
      const t = this.toks[j];
      if (t.kind === 'op' && (t.text === '(' || t.text === ')')) depth += t.text === '(' ? 1 : -1;
      if (depth === 0) {
        if (this.toks[j + 1]?.kind === 'eof') this.toks = [...this.toks.slice(1, j), this.toks[j + 1]];
        return;
      }
    }
  }

  /** A program that is exactly one expression (not an assignment, not x++) is a filter. */
  private tryFilter(): Expr | undefined {
    const start = this.i;
    const read = new Set(this.read);
    try {
      const e = this.parseExpr();
      if (this.peek().kind === 'eof' && e.t !== 'postfix' && !(e.t === 'call' && e.target)) return e;
    } catch {
      /* not an expression: parse it as statements, which reports the real problem */
    }
    this.i = start;
    this.depth = 0;
    this.read.clear();
    for (const r of read) this.read.add(r);
    this.assigned.clear();
    return undefined;
  }

  private declarations(): VarDecl[] {
    const decls: VarDecl[] = [];
    for (;;) {
      if (this.isWord('var')) {
        this.next();
        do {
          const t = this.name('after var');
          const ref = this.declare('var', t.text, t);
          decls.push({ ref, init: this.accept('=') ? this.parseExpr() : undefined });
        } while (this.accept(','));
        this.endOfStatement('after a var declaration');
      } else if (this.isWord('map')) {
        this.next();
        const t = this.name('after map');
        decls.push({ ref: this.declare('map', t.text, t) });
        this.endOfStatement('after a map declaration');
      } else {
        return decls;
      }
    }
  }

  private name(context: string): EToken {
    const t = this.next();
    if (t.kind !== 'ident' || ['if', 'else', 'for', 'switch', 'var', 'map', 'true', 'false', 'return'].includes(t.text)) {
      this.fail(`expected a name ${context}, found ${this.describe(t)}`, t);
    }
    return t;
  }

  /** `;` ends a statement; it may be left out before `}` and at the end of the program. */
  private endOfStatement(context: string): void {
    if (this.accept(';') || this.isOp('}') || this.peek().kind === 'eof') return;
    this.fail(`expected ";" ${context}, found ${this.describe(this.peek())}`);
  }

  private statement(): Stmt {
    this.enter();
    const s = this.statementInner();
    this.leave();
    return s;
  }

  private statementInner(): Stmt {
    const t = this.peek();
    if (t.kind === 'op' && t.text === ';') {
      this.next();
      return { t: 'empty' };
    }
    if (t.kind === 'op' && t.text === '{') {
      this.next();
      return { t: 'block', body: this.blockBody() };
    }
    if (t.kind !== 'ident') return this.simple(true);
    switch (t.text) {
      case 'if':
        return this.ifStatement();
      case 'for':
        return this.forStatement();
      case 'switch':
        return this.switchStatement();
      case 'break':
      case 'continue':
        this.next();
        if (t.text === 'break' ? this.loops + this.switches === 0 : this.loops === 0) this.fail(`${t.text} outside a for loop${t.text === 'break' ? ' or switch' : ''}`, t);
        this.endOfStatement(`after ${t.text}`);
        return { t: t.text };
      case 'return': {
        this.next();
        if (this.isOp(';') || this.peek().kind === 'eof') this.fail('return needs an expression (return true; or return false;)', t);
        const e = this.parseExpr();
        this.endOfStatement('after return');
        return { t: 'return', e };
      }
      case 'var':
      case 'map':
        return this.fail(`${t.text} declarations must come before the other statements`, t);
      case 'case':
      case 'default':
        return this.fail(`${t.text} outside a switch`, t);
      case 'else':
        return this.fail('else without if', t);
      default:
        return this.simple(true);
    }
  }

  private blockBody(): Stmt[] {
    const body: Stmt[] = [];
    while (!this.accept('}')) {
      if (this.peek().kind === 'eof') this.fail('missing "}"');
      body.push(this.statement());
    }
    return body;
  }

  /** An assignment (`x = e`, `x[i] = e`, `x += e`) or an expression (`x++`, `set_data(...)`). */
  private simple(terminated: boolean): Stmt {
    const at = this.peek();
    const e = this.parseExpr();
    let s: Stmt;
    const op = this.peek();
    if (op.kind === 'op' && (op.text === '=' || op.text === '+=' || op.text === '-=')) {
      this.next();
      s = { t: 'assign', target: this.toLValue(e, at), op: op.text, e: this.parseExpr() };
    } else {
      s = { t: 'expr', e };
    }
    if (terminated) this.endOfStatement('after a statement');
    return s;
  }

  private ifStatement(): Stmt {
    this.next();
    this.expect('(', 'after if');
    const test = this.parseExpr();
    this.expect(')', 'after the if condition');
    const then = this.statement();
    if (!this.isWord('else')) return { t: 'if', test, then };
    this.next();
    return { t: 'if', test, then, else: this.statement() };
  }

  private forStatement(): Stmt {
    this.next();
    this.expect('(', 'after for');
    const init = this.isOp(';') ? undefined : this.simple(false);
    this.expect(';', 'after the for initialiser');
    const test = this.isOp(';') ? undefined : this.parseExpr();
    this.expect(';', 'after the for condition');
    const post = this.isOp(')') ? undefined : this.simple(false);
    this.expect(')', 'after the for clauses');
    this.loops++;
    const body = this.statement();
    this.loops--;
    return { t: 'for', init, test, post, body };
  }

  private switchStatement(): Stmt {
    this.next();
    this.expect('(', 'after switch');
    const on = this.parseExpr();
    this.expect(')', 'after the switch expression');
    this.expect('{', 'to open the switch body');
    const cases: Array<{ test?: Expr; body: Stmt[] }> = [];
    this.switches++;
    while (!this.accept('}')) {
      const t = this.next();
      let test: Expr | undefined;
      if (t.kind === 'ident' && t.text === 'case') test = this.parseExpr();
      else if (!(t.kind === 'ident' && t.text === 'default')) this.fail(`expected case or default, found ${this.describe(t)}`, t);
      if (!test && cases.some((c) => !c.test)) this.fail('more than one default in a switch', t);
      if (cases.length && !cases[cases.length - 1].test) this.fail('default must be the last case of a switch', t);
      this.expect(':', `after ${test ? 'case' : 'default'}`);
      const body: Stmt[] = [];
      while (!this.isWord('case') && !this.isWord('default') && !this.isOp('}')) {
        if (this.peek().kind === 'eof') this.fail('missing "}" to close the switch');
        body.push(this.statement());
      }
      cases.push({ test, body });
    }
    this.switches--;
    return { t: 'switch', on, cases };
  }
}

/** Parses a program; `base` is its offset in the query. Throws EvalSyntaxError (a ModuleArgError). */
export function parseProgram(text: string, base: number): ProgramAst {
  return new ProgramParser(lexEval(text, base)).program();
}
