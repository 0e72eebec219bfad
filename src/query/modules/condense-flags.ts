/** Flags shared by the condensing modules: `-maxtracked N`, and product flags this service leaves out. */
import { ArgReader, Flags, FlagSpec } from '../args';
import { ModuleArgError } from '../types';

export interface CondenseFlags {
  /** `-maxtracked N`; undefined: the configured default (QueryLimits.maxTracked) */
  maxTracked?: number;
  flags: Flags;
}

/** A positive integer flag value. */
export function positiveInt(flag: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) === 0 || !Number.isSafeInteger(Number(text))) throw new ModuleArgError(`invalid ${flag} "${text}": a positive integer is needed`);
  return Number(text);
}

/**
 * Reads the leading flags: `-maxtracked` when `maxTracked` is true, the module's own `spec`, and
 * refuses the product flags in `unsupported` with an error that names them.
 */
export function readCondenseFlags(r: ArgReader, opts: { maxTracked: boolean; spec?: FlagSpec; unsupported?: FlagSpec }): CondenseFlags {
  const spec: FlagSpec = { ...opts.spec, ...opts.unsupported };
  if (opts.maxTracked) spec.maxtracked = 'value';
  const flags = r.flags(spec);
  for (const name of Object.keys(opts.unsupported ?? {})) {
    if (name in flags) throw new ModuleArgError(`flag -${name} is not supported`);
  }
  const raw = flags.maxtracked;
  return { maxTracked: typeof raw === 'string' ? positiveInt('-maxtracked', raw) : undefined, flags };
}
