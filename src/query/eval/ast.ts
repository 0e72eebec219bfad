/** Syntax tree of an eval program. Identifiers are resolved to slots by the parser. */
import { ArithOp, CompareOp } from './ops';
import { Value } from './value';

/** Where a name lives: an entry variable/EV (`slot` in the per-entry table), a persistent var, or a map. */
export type VarRef = { scope: 'entry'; slot: number; name: string } | { scope: 'var'; slot: number; name: string } | { scope: 'map'; slot: number; name: string };

export type Expr =
  | { t: 'lit'; v: Value }
  | { t: 'array'; items: Expr[] }
  | { t: 'var'; ref: VarRef }
  | { t: 'index'; target: Expr; index: Expr }
  | { t: 'slice'; target: Expr; from: Expr; to: Expr }
  | { t: 'arith'; op: ArithOp; a: Expr; b: Expr }
  | { t: 'cmp'; op: CompareOp; a: Expr; b: Expr }
  | { t: 'and' | 'or'; a: Expr; b: Expr }
  | { t: 'not' | 'neg'; a: Expr }
  | { t: 'cond'; test: Expr; yes: Expr; no: Expr }
  | { t: 'cast'; name: string; a: Expr }
  /** `target`: the place append() changes */
  | { t: 'call'; name: string; args: Expr[]; pos: number; target?: LValue }
  /** `x++`, `x--`: the old value; the target gets x ± 1 */
  | { t: 'postfix'; op: '++' | '--'; target: LValue };

/** An assignable place: a variable, followed by indexes (`a[1][2]`, `m["k"]`). */
export interface LValue {
  ref: VarRef;
  path: Expr[];
}

export type Stmt =
  | { t: 'expr'; e: Expr }
  | { t: 'assign'; target: LValue; op: '=' | '+=' | '-='; e: Expr }
  | { t: 'if'; test: Expr; then: Stmt; else?: Stmt }
  | { t: 'for'; init?: Stmt; test?: Expr; post?: Stmt; body: Stmt }
  | { t: 'switch'; on: Expr; cases: Array<{ test?: Expr; body: Stmt[] }> }
  | { t: 'block'; body: Stmt[] }
  | { t: 'return'; e: Expr }
  | { t: 'break' | 'continue' | 'empty' };

export interface VarDecl {
  ref: VarRef;
  init?: Expr;
}

export interface ProgramAst {
  decls: VarDecl[];
  body: Stmt[];
  /** the program is one expression: entries for which it is false (or zero, or no value) are dropped */
  filter?: Expr;
  /** names of entry variables by slot */
  slots: string[];
  /** names of persistent vars and maps by slot */
  vars: string[];
  maps: string[];
  /** entry variables the program assigns (they become EVs) and reads */
  assigned: Set<string>;
  read: Set<string>;
}
