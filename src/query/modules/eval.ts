/**
 * `eval <program>` and the bare `( <program> )` module: the product's C-like language over EVs
 * (src/query/eval). A program that is one expression filters; others assign EVs, loop, return.
 */
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { builtinNames } from '../eval/builtins';
import { compileProgram } from '../eval/program';
import { ModuleDef, ModuleInstance } from './module';

export const evalModule: ModuleDef = {
  name: 'eval',
  info:
    'Run a C-like program on each entry: a single expression filters (eval status >= 500 && host ~ "web", or a bare ( expr ) module); ' +
    'statements assign EVs for later modules (x = a + 1;), with if/else, for, break/continue, switch, return, persistent var and map, ' +
    'arrays {1,2}, casts int() float() string() bool() ip() time() duration() array() int8..uint64. Functions: ' +
    builtinNames().join(', '),
  examples: [
    'eval status >= 500',
    'eval ( status >= 500 && host ~ "web" )',
    'eval in(Appname, "indexer", "webserver")',
    'eval if (bytes > 1000) { size = "big"; } else { size = "small"; }',
    'eval var n = 0; n++; seen = n;',
    'eval out = printf("%s sent %d bytes", user, bytes);',
    '(len(user) > 3)',
  ],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const frag = args[0];
    if (!frag || frag.kind !== 'fragment' || args.length !== 1) throw new ModuleArgError('missing program');
    if (frag.value.trim() === '') throw new ModuleArgError('missing program');
    const program = compileProgram(frag.value, frag.pos);
    return {
      produced: program.produced,
      consumed: program.consumed,
      process: (e, rt) => program.run(e, rt),
    };
  },
};
