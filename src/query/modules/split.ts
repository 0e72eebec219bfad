/** `split [-d delim] [-clean] [EV]`: one entry per piece of the entry data (or of an enumerated value). */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { Entry, EVValue, ModuleArgError } from '../types';
import { cloneEntry, evToString } from '../values';
import { addWarning } from '../warnings';
import { ModuleDef, ModuleInstance } from './module';
import { optionalString, readFlags } from './extract-common';
import { checkName, readValue } from './transform-common';

/** At most this many pieces come from one entry; the rest of the value stays in the last piece (with a warning). */
export const MAX_PIECES = 10_000;
/** Every piece copies the rest of the entry (its other EVs, the data when an EV is split): at most this much per split entry. */
export const MAX_COPIED_BYTES = 64 * 1024 * 1024;

/** Bytes one piece repeats from its entry: every EV but the one split, and the data when an EV is split. */
function copiedPerPiece(e: Entry, source: string): number {
  let n = source === 'DATA' ? 0 : e.data.length;
  for (const [k, v] of e.evs) if (k !== source) n += k.length + (Buffer.isBuffer(v) ? v.length : typeof v === 'string' ? v.length : 8);
  return n;
}

const CLEAN = new Set([0x20, 0x09, 0x22, 0x27]); // space, tab, " and '

function cleanBytes(b: Buffer): Buffer {
  let a = 0;
  let z = b.length;
  while (a < z && CLEAN.has(b[a])) a++;
  while (z > a && CLEAN.has(b[z - 1])) z--;
  return b.subarray(a, z);
}

/** The non-empty pieces of `b` between delimiters (cleaned with -clean); `cut` is true when MAX_PIECES stopped the split. */
export function splitBytes(b: Buffer, delim: Buffer, clean: boolean, max = MAX_PIECES): { pieces: Buffer[]; cut: boolean } {
  const pieces: Buffer[] = [];
  let at = 0;
  const add = (p: Buffer) => {
    const q = clean ? cleanBytes(p) : p;
    if (q.length) pieces.push(q);
  };
  while (at <= b.length) {
    const i = pieces.length < max - 1 ? b.indexOf(delim, at) : -1;
    if (i < 0) {
      add(b.subarray(at));
      return { pieces, cut: pieces.length >= max && b.indexOf(delim, at) >= 0 };
    }
    add(b.subarray(at, i));
    at = i + delim.length;
  }
  return { pieces, cut: false };
}

export const splitModule: ModuleDef = {
  name: 'split',
  info:
    'Split the entry data (or the named enumerated value, leaving the data as it is) on a delimiter (-d, default ",") into one entry per piece; ' +
    `-clean trims spaces, tabs and quotes around each piece. Empty pieces make no entry; a value without the delimiter passes as it is; one entry gives at most ${MAX_PIECES} pieces, ` +
    'and fewer when its other values are large (each piece repeats them; at most 64 MiB per entry): the rest stays in the last piece, with a warning',
  examples: ['split', 'split -clean', 'split -d " "', 'split -d custom', 'json useragent | split -clean useragent'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const f = readFlags(r, { d: 'value', clean: 'bool' });
    const delim = optionalString(f.d) ?? ',';
    if (delim === '') throw new ModuleArgError('the delimiter (-d) must not be empty');
    const source = r.done ? 'DATA' : checkName(r.value('enumerated value name'), 'enumerated value name');
    r.end();
    const d = Buffer.from(delim, 'utf8');
    const clean = f.clean === true;
    return {
      produced: source === 'DATA' ? [] : [source],
      consumed: source === 'DATA' ? [] : [source],
      expand(e, rt) {
        const v = readValue(e, source, rt);
        if (v === undefined) return [e];
        const text = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
        const max = Math.max(1, Math.min(MAX_PIECES, Math.floor(MAX_COPIED_BYTES / Math.max(1, copiedPerPiece(e, source)))));
        const { pieces, cut } = splitBytes(Buffer.isBuffer(v) ? v : Buffer.from(evToString(v), 'utf8'), d, clean, max);
        if (cut) addWarning(rt, `split: an entry had more than ${max} pieces (at most ${MAX_PIECES}, and 64 MiB copied from one entry); the rest of it stays in its last piece`);
        return pieces.map((p, i): Entry => {
          const x = i === 0 ? e : cloneEntry(e);
          if (source === 'DATA') x.data = p;
          else x.evs.set(source, (text ? p.toString('utf8') : p) as EVValue);
          return x;
        });
      },
    };
  },
};
