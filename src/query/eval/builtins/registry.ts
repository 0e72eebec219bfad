/** The built-in functions of eval: one table, checked at parse time (name and argument count). */
import { Entry, RuntimeContext } from '../../types';
import { Expr } from '../ast';
import { Value } from '../value';

/** What a built-in may use besides its arguments. */
export interface CallCtx {
  entry: Entry;
  rt: RuntimeContext;
  /** pays for bulk work (characters or elements handled); throws when the step budget is spent */
  charge(work: number): void;
  /** a variable (this program's, persistent) or EV by name; null when there is none */
  readName(name: string): Value;
  deleteName(name: string): void;
  /** names of the entry's EVs and of the variables the program has set so far */
  evNames(): string[];
  setData(data: Buffer): void;
  /** a cached compiled regular expression; null when the pattern is invalid or refused */
  regex(pattern: string): RegExp | null;
}

export interface Builtin {
  name: string;
  /** signature for the documentation, e.g. "strings_index(s, sub) int" */
  sig: string;
  min: number;
  max: number;
  /** first argument is a variable name: an identifier stands for its name, not its value */
  nameArg?: boolean;
  /** first argument is (or may be) a persistent map */
  mapArg?: 'must' | 'may';
  /** parse-time check of the argument expressions (e.g. a literal regular expression) */
  check?(args: Expr[], pos: number): void;
  fn(args: Value[], ctx: CallCtx): Value;
}

/** Functions the product documents that this implementation does not have. */
export const UNSUPPORTED_FUNCTIONS: Record<string, string> = {
  log: 'log() (logging to the gravwell tag) is not supported',
};

const ALL = new Map<string, Builtin>();

export function register(defs: Builtin[]): void {
  for (const d of defs) ALL.set(d.name, d);
}

export function findBuiltin(name: string): Builtin | undefined {
  return ALL.get(name);
}

export function builtinNames(): string[] {
  return [...ALL.keys()];
}

export function builtinSignatures(): string[] {
  return [...ALL.values()].map((b) => b.sig);
}
