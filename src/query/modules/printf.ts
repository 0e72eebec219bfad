/** `printf [-e target] "format" EV ...`: Go-style formatting of enumerated values into "printf" (or -e target). */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { optionalString, readFlags } from './extract-common';
import { formatAll, parseFormat } from './go-format';
import { MAX_BUILT_VALUE } from './transform-common';
import { addWarning } from '../warnings';

export const printfModule: ModuleDef = {
  name: 'printf',
  info:
    'Format enumerated values with a Go-style format string (%v %s %d %x %f %q ... with the + - # space 0 flags, width and precision) into "printf" (-e another name). ' +
    'The format takes exactly as many enumerated values as it has verbs. Numeric text counts as a number for the numeric verbs, %s and %v print any value; ' +
    'an entry lacking one of the values gets no output, and so does one whose text would pass 16 MiB (with a warning)',
  examples: ['printf "%s:%d" Dst DstPort', 'printf -e summary "The source port is %v and the destination port is %v!" SrcPort DstPort', 'printf "%08.3f" ratio'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value' });
    const target = optionalString(flags.e) ?? 'printf';
    if (target === '') throw new ModuleArgError('target must not be empty');
    if (r.done) throw new ModuleArgError('missing format string, e.g. printf "%s:%d" host port');
    const parts = parseFormat(r.value('format string'));
    const names: string[] = [];
    while (!r.done) names.push(r.value('enumerated value name'));
    const verbs = parts.filter((p) => typeof p !== 'string').length;
    if (verbs !== names.length) {
      throw new ModuleArgError(`the format string has ${verbs} verb${verbs === 1 ? '' : 's'} but ${names.length} enumerated value${names.length === 1 ? ' is' : 's are'} given`);
    }
    return {
      produced: [target],
      consumed: names,
      process(e, rt) {
        const out = formatAll(
          parts,
          names.map((n) => getEV(e, n, rt)),
          MAX_BUILT_VALUE,
        );
        if (out === null) addWarning(rt, `printf: the text for an entry would pass ${MAX_BUILT_VALUE / 1024 / 1024} MiB; such entries get no output`);
        else if (out !== undefined) e.evs.set(target, out);
        return true;
      },
    };
  },
};
