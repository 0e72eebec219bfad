/** `strings [-t target] [-n length] [source]`: non-printable characters become periods; entries without a long enough string are dropped. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { optionalString, readFlags } from './extract-common';
import { checkName, intArg, readValue, valueBytes, writeValue } from './transform-common';

const CONTROL = /\p{C}/u;

/** Length of the valid UTF-8 sequence at i, or 0 when the byte there does not start one. */
function seqLength(b: Buffer, i: number): number {
  const x = b[i];
  const len = x < 0x80 ? 1 : x >= 0xc2 && x < 0xe0 ? 2 : x >= 0xe0 && x < 0xf0 ? 3 : x >= 0xf0 && x < 0xf5 ? 4 : 0;
  if (len === 0 || i + len > b.length) return 0;
  for (let k = 1; k < len; k++) if ((b[i + k] & 0xc0) !== 0x80) return 0;
  if (len === 3 && ((x === 0xe0 && b[i + 1] < 0xa0) || (x === 0xed && b[i + 1] >= 0xa0))) return 0; // overlong, surrogate
  if (len === 4 && ((x === 0xf0 && b[i + 1] < 0x90) || (x === 0xf4 && b[i + 1] >= 0x90))) return 0;
  return len;
}

/**
 * The text with every non-printable character (a control or format character, or a byte that is
 * not UTF-8; a tab is printable) as a period, and the length in characters of its longest printable run.
 */
export function printable(b: Buffer): { text: string; longest: number } {
  let text = '';
  let run = 0;
  let longest = 0;
  for (let i = 0; i < b.length;) {
    const len = seqLength(b, i);
    const ch = len ? b.toString('utf8', i, i + len) : '';
    if (len && (ch === '\t' || !CONTROL.test(ch))) {
      text += ch;
      run++;
      if (run > longest) longest = run;
      i += len;
    } else {
      text += '.';
      run = 0;
      i += len || 1;
    }
  }
  return { text, longest };
}

export const stringsModule: ModuleDef = {
  name: 'strings',
  info:
    'Keep entries holding a string of at least -n printable characters (default 6) in the entry data or the source EV, and write it back (or into -t target) with every non-printable character ' +
    '(control characters, bytes that are not UTF-8) as a period; shorter printable runs stay as they are. Entries lacking the source are dropped',
  examples: ['strings', 'strings -n 10', 'strings -t foo', 'strings -t foo Payload'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const f = readFlags(r, { t: 'value', n: 'value' });
    const min = f.n === undefined ? 6 : intArg(optionalString(f.n)!, 'the minimum length (-n)', 1, 1_000_000);
    const source = r.done ? 'DATA' : checkName(r.value('enumerated value name'), 'enumerated value name');
    r.end();
    const target = f.t === undefined ? source : checkName(optionalString(f.t)!, 'target');
    if (target === '') throw new ModuleArgError('target must not be empty');
    return {
      produced: target === 'DATA' ? [] : [target],
      consumed: source === 'DATA' ? [] : [source],
      process(e, rt) {
        const v = readValue(e, source, rt);
        if (v === undefined) return false;
        const { text, longest } = printable(valueBytes(v));
        if (longest < min) return false;
        writeValue(e, target, text);
        return true;
      },
    };
  },
};
