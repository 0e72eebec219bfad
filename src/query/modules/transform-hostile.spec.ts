/**
 * Hostile input for every data-transform module (issue 28): binary garbage and huge fields never
 * throw, and what comes out stays within a fixed multiple of what went in.
 */
import fc from 'fast-check';
import { Entry } from '../types';
import { linesToEntries, run } from './extraction.spec-helper';
import { MAX_COPIED_BYTES } from './split';

/** Every query extracts `a` and `b` first (kv), so each module meets garbage in an EV and in the data. */
const QUERIES = [
  'printf "%s|%5.2f|%x|%q|%v" a b a b DATA',
  'printf -e p "%d %c %U %e %g %08b" a a b b a b',
  'base64 -t x a | base64 -d -t y x | base64 -d -s DATA',
  'base64 -d -u -raw -t x b',
  'hexlify a as h b | hexlify -d h as back b as bb',
  'trim a "xy" | trimleft b "\\x00" | trimright DATA "z" | trimprefix a "a" | trimsuffix b "b" | trimspace a | trim -e b a',
  'truncate -ellipsis a b 3 | truncate -binary DATA 5',
  'concat -s "--" a b DATA as c',
  'abs a as x b',
  'unescape a b | unescape -url DATA',
  'split -d "a" | split -clean -d "=" b',
  'slice uint64be(a[0:8]) as u int16(DATA[-2:]) as i IPv6(b[0:16]) as ip string([1:]) as s',
  'strings -n 2 -t s a | strings -n 1',
  'entropy a by b',
  'keep a',
  'path -e a base dir ext volume',
  'time a x | time -iformat "2006-01-02" b y | time -oformat "Mon Jan _2 15:04:05.000 2006 MST" -tz Asia/Kolkata TIMESTAMP z',
].map((q) => `kv a b | ${q}`);

function size(entries: Entry[]): number {
  let n = 0;
  for (const e of entries) {
    n += e.data.length + 64;
    for (const [k, v] of e.evs) n += k.length + (Buffer.isBuffer(v) ? v.length : String(v).length);
  }
  return n;
}

function outputOf(q: string, entries: Entry[]): { entries: Entry[]; bytes: number } {
  const r = run(q, entries);
  const list = r.kind === 'entries' ? r.Entries : [];
  return { entries: list, bytes: size(list) };
}

describe('data-transform modules under hostile input', () => {
  it.each(QUERIES)('%s: binary garbage never throws and stays bounded', (q) => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { minLength: 1, maxLength: 8 }), fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), (raw, evs) => {
        // entries mixing garbage with a=... b=... pairs holding garbage too
        const lines = raw.map((b, i) =>
          Buffer.concat([
            Buffer.from(
              `a=${Buffer.from(evs[i] ?? [])
                .toString('latin1')
                .replace(/\s/g, '_')} b=`,
            ),
            Buffer.from(b),
          ]),
        );
        const entries = linesToEntries(lines);
        const inBytes = size(entries);
        const out = outputOf(q, entries);
        // split makes one entry per piece (each at most the entry); the others at most 8x in bytes
        return out.bytes <= 16 * inBytes + 4096;
      }),
      { numRuns: 40 },
    );
  });

  it.each(QUERIES)('%s: a 2 MB field is handled in one pass', (q) => {
    const big = Buffer.alloc(2_000_000, 0x61);
    big.write('a=', 0);
    for (let i = 1000; i < big.length; i += 997) big[i] = i % 256;
    const started = Date.now();
    const out = outputOf(q, linesToEntries([big]));
    // split repeats the rest of an entry in every piece: at most MAX_COPIED_BYTES per split entry (two splits here)
    expect(out.bytes).toBeLessThanOrEqual(16 * big.length + (q.includes('split') ? 2 * MAX_COPIED_BYTES : 0));
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
