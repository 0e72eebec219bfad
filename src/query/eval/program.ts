/** An eval program compiled once per search: parse tree, persistent state and a regex cache. */
import { compileUserRegex } from '../modules/regex';
import { Entry, RuntimeContext } from '../types';
import { ProgramAst } from './ast';
import { ProgramEnv, Run } from './interp';
import { EvalLimits, evalLimits } from './limits';
import { parseProgram } from './parse-program';
import { PersistentState } from './state';

const REGEX_CACHE = 256;

export interface EvalProgram {
  /** a filter program (one expression) */
  isFilter: boolean;
  /** EVs the program assigns and reads */
  produced: string[];
  consumed: string[];
  /** Runs on one entry (may change its EVs and DATA); false drops it. Throws EvalRuntimeError past a limit. */
  run(entry: Entry, rt: RuntimeContext): boolean;
}

/**
 * Parses a program (`base`: its offset in the query, for messages). Throws EvalSyntaxError.
 * Persistent vars and maps live in the returned object: one set per compiled query.
 */
export function compileProgram(text: string, base: number, limits: EvalLimits = evalLimits()): EvalProgram {
  const ast: ProgramAst = parseProgram(text, base);
  const regexes = new Map<string, RegExp | null>();
  const env: ProgramEnv = {
    ast,
    limits,
    state: new PersistentState(ast.vars.length, ast.maps.length, limits),
    slotOf: new Map(ast.slots.map((n, i) => [n, i])),
    varOf: new Map(ast.vars.map((n, i) => [n, i])),
    regex(pattern) {
      let re = regexes.get(pattern);
      if (re !== undefined) return re;
      try {
        re = compileUserRegex(pattern);
      } catch {
        re = null;
      }
      if (regexes.size >= REGEX_CACHE) regexes.clear();
      regexes.set(pattern, re);
      return re;
    },
  };
  return {
    isFilter: ast.filter !== undefined,
    produced: [...ast.assigned],
    consumed: [...ast.read].filter((n) => !ast.assigned.has(n)),
    run: (entry, rt) => new Run(env, entry, rt).run(),
  };
}
