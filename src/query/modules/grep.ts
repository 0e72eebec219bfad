/** `grep [-e EV] [-v] pattern...`: substring match (`*` wildcard); an entry passes if any pattern matches. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { Entry, ModuleArgError, RuntimeContext } from '../types';
import { evToString, getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString } from './extract-common';

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A matcher on bytes (plain substring) or on text (wildcards). */
export function substringMatcher(pattern: string): (data: Buffer | string) => boolean {
  if (!pattern.includes('*')) {
    const needle = Buffer.from(pattern, 'utf8');
    return (d) => (typeof d === 'string' ? d.includes(pattern) : d.includes(needle));
  }
  const re = new RegExp(pattern.split('*').map(escapeRegex).join('.*'), 's');
  return (d) => re.test(typeof d === 'string' ? d : d.toString('utf8'));
}

function readPatterns(r: ArgReader): string[] {
  const out: string[] = [];
  while (!r.done) out.push(r.value('pattern'));
  if (out.length === 0) throw new ModuleArgError('missing pattern argument');
  return out;
}

export function readTarget(e: Entry, ev: string | undefined, rt: RuntimeContext): Buffer | string | undefined {
  if (ev === undefined) return e.data;
  const v = getEV(e, ev, rt);
  if (v === undefined) return undefined;
  return Buffer.isBuffer(v) ? v : evToString(v);
}

export const grepModule: ModuleDef = {
  name: 'grep',
  info: 'Keep entries containing any of the patterns (substring, * wildcard); -v inverts; -e reads an EV',
  examples: ['grep error', 'grep -v "GET /health*"', 'grep -e user admin root'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = r.flags({ e: 'value', v: 'bool' });
    const ev = optionalString(flags.e);
    const invert = flags.v === true;
    const patterns = readPatterns(r);
    const matchers = patterns.map(substringMatcher);
    // pushdown is an AND list: a single pattern, or several inverted ones (none may match)
    const pushable = ev === undefined && (patterns.length === 1 || invert);
    return {
      produced: [],
      consumed: consumedOf(ev),
      pushdownGrep: pushable ? patterns.map((pattern) => ({ pattern, invert })) : undefined,
      process(e, rt) {
        const target = readTarget(e, ev, rt);
        if (target === undefined) return false;
        return matchers.some((m) => m(target)) !== invert;
      },
    };
  },
};
