/** Runs a parsed program on one entry: statements and expressions (RunBase has the rest). */
import { Expr, LValue, Stmt } from './ast';
import { findBuiltin } from './builtins';
import { cast } from './convert';
import { CHUNK } from './limits';
import { arith, compare, equal, negate } from './ops';
import { indexValue, sizeOf, sliceValue } from './access';
import { RunBase } from './run-base';
import { arr, int, isObj, leafCount, truthy, Value } from './value';

export type { ProgramEnv } from './run-base';

const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
const RETURN = 3;
type Signal = 0 | 1 | 2 | 3;

export class Run extends RunBase {
  returned: Value = null;

  // ---- programs and statements

  /** Runs the declarations (first entry only), then the program. Returns whether the entry is kept. */
  run(): boolean {
    const { ast, state } = this.env;
    if (!state.initialized) {
      state.initialized = true;
      for (const d of ast.decls) if (d.init && d.ref.scope === 'var') state.setVar(d.ref.slot, this.store(this.eval(d.init)));
    }
    let keep = true;
    if (ast.filter) keep = truthy(this.eval(ast.filter));
    else if (this.execList(ast.body) === RETURN) keep = truthy(this.returned);
    this.writeBack();
    return keep;
  }

  private execList(list: Stmt[]): Signal {
    for (const s of list) {
      const sig = this.exec(s);
      if (sig !== NORMAL) return sig;
    }
    return NORMAL;
  }

  private exec(s: Stmt): Signal {
    if (++this.steps > this.max) this.overBudget();
    switch (s.t) {
      case 'expr':
        this.eval(s.e);
        return NORMAL;
      case 'assign': {
        let v = this.eval(s.e);
        if (s.op !== '=') {
          const cur = this.readPlace(s.target);
          if (cur !== null) v = this.checked(arith(s.op === '+=' ? '+' : '-', cur, v));
          else if (s.op === '-=') v = negate(v);
        }
        this.assign(s.target, v);
        return NORMAL;
      }
      case 'if':
        if (truthy(this.eval(s.test))) return this.exec(s.then);
        return s.else ? this.exec(s.else) : NORMAL;
      case 'for':
        return this.loop(s);
      case 'switch':
        return this.switchOn(s);
      case 'block':
        return this.execList(s.body);
      case 'return':
        this.returned = this.eval(s.e);
        return RETURN;
      case 'break':
        return BREAK;
      case 'continue':
        return CONTINUE;
      case 'empty':
        return NORMAL;
    }
  }

  private loop(s: Extract<Stmt, { t: 'for' }>): Signal {
    if (s.init) this.exec(s.init);
    for (;;) {
      if (++this.steps > this.max) this.overBudget();
      if (s.test && !truthy(this.eval(s.test))) return NORMAL;
      const sig = this.exec(s.body);
      if (sig === BREAK) return NORMAL;
      if (sig === RETURN) return RETURN;
      if (s.post) this.exec(s.post);
    }
  }

  private switchOn(s: Extract<Stmt, { t: 'switch' }>): Signal {
    const v = this.eval(s.on);
    let start = s.cases.findIndex((c) => c.test !== undefined && equal(v, this.eval(c.test)));
    if (start < 0) start = s.cases.findIndex((c) => c.test === undefined);
    if (start < 0) return NORMAL;
    for (let i = start; i < s.cases.length; i++) {
      const sig = this.execList(s.cases[i].body);
      if (sig === BREAK) return NORMAL;
      if (sig !== NORMAL) return sig;
    }
    return NORMAL;
  }

  // ---- expressions

  eval(e: Expr): Value {
    if (++this.steps > this.max) this.overBudget();
    switch (e.t) {
      case 'lit':
        return e.v;
      case 'var':
        return this.readRef(e.ref);
      case 'array':
        return this.checked(arr(e.items.map((x) => this.store(this.eval(x)))));
      case 'index':
        return indexValue(this.eval(e.target), this.eval(e.index));
      case 'slice': {
        const target = this.eval(e.target);
        this.charge(sizeOf(target));
        return this.checked(sliceValue(target, this.eval(e.from), this.eval(e.to), (v) => this.store(v)));
      }
      case 'arith': {
        const a = this.eval(e.a);
        const b = this.eval(e.b);
        return this.checked(arith(e.op, a, b));
      }
      case 'cmp': {
        const a = this.eval(e.a);
        const b = this.eval(e.b);
        if (typeof a !== 'string' || typeof b !== 'string' || a.length + b.length > CHUNK) this.charge(sizeOf(a) + sizeOf(b));
        return compare(e.op, a, b);
      }
      case 'and':
        return truthy(this.eval(e.a)) && truthy(this.eval(e.b));
      case 'or':
        return truthy(this.eval(e.a)) || truthy(this.eval(e.b));
      case 'not':
        return !truthy(this.eval(e.a));
      case 'neg':
        return negate(this.eval(e.a));
      case 'cond':
        return truthy(this.eval(e.test)) ? this.eval(e.yes) : this.eval(e.no);
      case 'cast': {
        const a = this.eval(e.a);
        this.charge(sizeOf(a));
        return this.checked(cast(e.name, a));
      }
      case 'call':
        return e.target ? this.append(e.target, e.args[1]) : this.call(e.name, e.args);
      case 'postfix': {
        const old = this.readPlace(e.target);
        this.assign(e.target, arith(e.op === '++' ? '+' : '-', old ?? int(0), int(1)));
        return old;
      }
    }
  }

  private call(name: string, argExprs: Expr[]): Value {
    const args = argExprs.map((a) => this.eval(a));
    let work = 0;
    for (const a of args) work += sizeOf(a);
    this.charge(work);
    return this.checked(findBuiltin(name)!.fn(args, this));
  }

  /** append(x, v): adds v to the array in x, in place when x owns it. */
  private append(target: LValue, itemExpr: Expr): Value {
    const item = this.store(this.eval(itemExpr));
    const cur = this.readPlace(target);
    if (isObj(cur, 'array') && cur.owned) {
      if (cur.a.length + (isObj(item, 'array') ? leafCount(item) : 0) >= this.env.limits.maxArrayLength) this.tooLong();
      cur.a.push(item);
      this.touched(target, item);
      return cur;
    }
    const next = this.checked(arr(cur === null ? [item] : isObj(cur, 'array') ? [...cur.a, item] : [cur, item]));
    this.assign(target, next);
    return next;
  }
}
