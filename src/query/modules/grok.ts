/**
 * `grok` is refused at parse time. The npm registry has no well-kept grok pattern library:
 * node-grok and its forks (grok-js, node-grok-forked) are thin, seldom-used wrappers over the
 * native Oniguruma addon (a backtracking engine, a compiler at install time, grok-js even a
 * GitHub dependency), and the standard patterns (COMBINEDAPACHELOG...) rely on lookarounds that
 * V8's linear-time engine cannot run, so their work per entry could not be bounded.
 */
import { ModuleArgError } from '../types';
import { ModuleDef } from './module';

export const grokModule: ModuleDef = {
  name: 'grok',
  info: 'Not supported: use regex with named groups (?P<name>...)',
  examples: [],
  condensing: false,
  build() {
    throw new ModuleArgError('not supported (no well-kept grok pattern library with bounded matching exists for this service); use regex "(?P<name>...)" instead');
  },
};
