/** Registers every built-in function (import this, not the files). */
import { ENCODING } from './encoding';
import { JSON_FUNCS } from './json';
import { MATH } from './math';
import { MISC } from './misc';
import { register } from './registry';
import { STRINGS } from './strings';

register([...MISC, ...STRINGS, ...MATH, ...JSON_FUNCS, ...ENCODING]);

export { builtinNames, builtinSignatures, findBuiltin, UNSUPPORTED_FUNCTIONS } from './registry';
export type { Builtin, CallCtx } from './registry';
