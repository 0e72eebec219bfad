/** `words [-e EV] [-or] [-v] w1 w2 ...`: whole-word match; all words must appear unless -or; -v: none may appear. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString, readFlags } from './extract-common';
import { escapeRegex, readTarget } from './grep';

export function wordRegex(word: string): RegExp {
  const body = word.split('*').map(escapeRegex).join('[A-Za-z0-9_]*');
  return new RegExp(`(?<![A-Za-z0-9_])${body}(?![A-Za-z0-9_])`);
}

export const wordsModule: ModuleDef = {
  name: 'words',
  info: 'Keep entries containing whole words (all of them, or any with -or); -v keeps entries containing none of them',
  examples: ['words error timeout', 'words -or fail denied', 'words -e msg login', 'words -v HTTP 1.1'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value', or: 'bool', v: 'bool' });
    const invert = flags.v === true;
    const ev = optionalString(flags.e);
    const words: string[] = [];
    while (!r.done) words.push(r.value('word'));
    if (words.length === 0) throw new ModuleArgError('missing word argument');
    const res = words.map(wordRegex);
    const any = flags.or === true;
    return {
      produced: [],
      consumed: consumedOf(ev),
      process(e, rt) {
        const target = readTarget(e, ev, rt);
        if (target === undefined) return false;
        const text = typeof target === 'string' ? target : target.toString('utf8');
        if (invert) return !res.some((re) => re.test(text));
        return any ? res.some((re) => re.test(text)) : res.every((re) => re.test(text));
      },
    };
  },
};
