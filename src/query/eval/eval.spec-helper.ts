/** Runs eval programs on single entries for the eval tests. */
import { T0, TAGS } from '../fixtures.spec-helper';
import { makeRuntime } from '../planner';
import { Entry, EVValue } from '../types';
import { EvalLimits, evalLimits } from './limits';
import { compileProgram, EvalProgram } from './program';

/** evalSteps 0: no search-wide budget, so each test program's own `maxSteps` is its budget. */
export const rt = { ...makeRuntime(TAGS, new Date(T0 / 1000 + 3600_000)), limits: { ...makeRuntime(TAGS, new Date(0)).limits, evalSteps: 0 } };

export function entryWith(evs: Record<string, EVValue> = {}, data = 'hello world', src = '10.0.0.1'): Entry {
  return { ts: T0, tag: 1, src, data: Buffer.from(data), evs: new Map(Object.entries(evs)) };
}

export function compile(program: string, limits: Partial<EvalLimits> = {}): EvalProgram {
  return compileProgram(program, 0, { ...evalLimits(), ...limits });
}

/** Runs `program` once on an entry with `evs`: whether it is kept and its EVs afterwards. */
export function run(program: string, evs: Record<string, EVValue> = {}, limits: Partial<EvalLimits> = {}): { keep: boolean; evs: Record<string, EVValue>; entry: Entry } {
  const entry = entryWith(evs);
  const keep = compile(program, limits).run(entry, rt);
  return { keep, evs: Object.fromEntries(entry.evs), entry };
}

/** The value a program leaves in `out` (`out = <expr>;`). */
export function value(expr: string, evs: Record<string, EVValue> = {}): EVValue | undefined {
  return run(`out = ${expr};`, evs).evs.out;
}
