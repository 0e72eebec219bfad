/**
 * What a query changes outside its own search. Queries a person did not write (another owner's
 * dashboard tiles, library entries, templates, macros, actionables; links that run a query) must
 * never do it silently: the launch is refused unless its author runs it or the person confirms
 * (README, "Queries written by someone else"). The ONE list of such modules: a new module or
 * renderer flag that writes, sends or deletes anything must be added here.
 */
import { ParsedQuery } from './parser';

export interface SideEffect {
  /** the module (and flag) that has it, as written in a query */
  Module: string;
  /** what it does, in words */
  Effect: string;
}

const SIDE_EFFECTS: ReadonlyArray<{ module: string; find(p: ParsedQuery): string[] }> = [
  {
    module: 'table -save',
    find: (p) => (p.renderer.instance.save === undefined ? [] : [`writes the table to the resource "${p.renderer.instance.save}", replacing its contents`]),
  },
];

/** Names of the modules with side effects (documentation and tests). */
export const SIDE_EFFECT_MODULES: readonly string[] = SIDE_EFFECTS.map((s) => s.module);

/** The side effects of a parsed query (inner queries of a compound query included). */
export function sideEffectsOf(p: ParsedQuery): SideEffect[] {
  const queries = [p, ...(p.inner ?? []).map((i) => i.parsed)];
  return queries.flatMap((q) => SIDE_EFFECTS.flatMap((s) => s.find(q).map((Effect) => ({ Module: s.module, Effect }))));
}
