import fc from 'fast-check';
import { expectDistributedEqual, kept, linesToEntries, parseError, strings } from './extraction.spec-helper';
import { compileKV, KVOptions, parseKV } from './kv';

/** parseKV as it was before compileKV (slices every key and value), kept to prove the fast one equal. */
const QUOTE = 0x22;
const SPACE_RE = /\s/;
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return SPACE_RE.test(String.fromCharCode(c));
}
function referenceParseKV(text: string, o: KVOptions, wanted?: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  let missing = wanted ? wanted.size : -1;
  const n = text.length;
  const all = o.delimAll;
  const chars = o.delims === undefined ? undefined : new Set([...o.delims].map((c) => c.charCodeAt(0)));
  const quotes = all === undefined ? !chars?.has(QUOTE) : !all.includes('"');
  const isDelim = (c: number): boolean => (chars ? chars.has(c) : isSpace(c));
  /** the delimiter ending just before `p` starts at the returned offset, or -1 */
  const delimBefore = (p: number, floor: number): number => {
    if (all === undefined) return p > floor && isDelim(text.charCodeAt(p - 1)) ? p - 1 : -1;
    return p - all.length >= floor && text.startsWith(all, p - all.length) ? p - all.length : -1;
  };
  let i = 0;
  while (i < n) {
    const at = text.indexOf(o.sep, i);
    if (at < 0) break;
    let kEnd = at;
    if (o.clean) while (kEnd > i && isSpace(text.charCodeAt(kEnd - 1))) kEnd--;
    let kStart = kEnd;
    while (kStart > i && delimBefore(kStart, i) < 0) kStart--;
    const key = text.slice(kStart, kEnd);
    // blanks after the separator are skipped (-noclean: kept in the value, which still runs to the delimiter after them)
    const v0 = at + o.sep.length;
    let v = v0;
    while (v < n && isSpace(text.charCodeAt(v)) && !(all !== undefined && text.startsWith(all, v))) v++;
    if (!o.clean && text.charCodeAt(v) === QUOTE) v = v0;
    let value: string;
    if (quotes && text.charCodeAt(v) === QUOTE) {
      let close = text.indexOf('"', v + 1);
      if (close < 0) close = n;
      value = text.slice(v + 1, close);
      i = close + 1;
    } else {
      let end = v;
      if (all !== undefined) {
        end = text.indexOf(all, v);
        if (end < 0) end = n;
      } else {
        while (end < n && !isDelim(text.charCodeAt(end))) end++;
      }
      value = o.clean ? text.slice(v, end).trimEnd() : text.slice(v0, end);
      i = end;
    }
    if (i === at) i = at + 1; // never stand still
    if (key === '' || out.has(key)) continue;
    out.set(key, value);
    if (wanted !== undefined && wanted.has(key) && --missing === 0) return out;
  }
  return out;
}

const DEF: KVOptions = { sep: '=', clean: true };
const pairs = (text: string, o: Partial<KVOptions> = {}) => [...parseKV(text, { ...DEF, ...o })];

describe('parseKV', () => {
  it('splits on whitespace, unquotes values, keeps the first occurrence, skips empty keys', () => {
    expect(pairs('a=1  b="x y"\tc= 3 a=2 =bad plain')).toEqual([
      ['a', '1'],
      ['b', 'x y'],
      ['c', '3'],
    ]);
  });

  it('cleans blanks around the separator (the page example), unless -noclean', () => {
    expect(pairs('x= 1 y = 2 z=3 foo    =  bar')).toEqual([
      ['x', '1'],
      ['y', '2'],
      ['z', '3'],
      ['foo', 'bar'],
    ]);
    expect(pairs('key=   value', { clean: false })).toEqual([['key', '   value']]);
  });

  it('uses other separators and delimiters: -sep, -d characters, -dall string', () => {
    expect(pairs('x:1|y:2|z:3|foo:bar', { sep: ':', delims: '|' })).toEqual([
      ['x', '1'],
      ['y', '2'],
      ['z', '3'],
      ['foo', 'bar'],
    ]);
    expect(pairs('x EQUALS 1 y EQUALS 2', { sep: 'EQUALS' })).toEqual([
      ['x', '1'],
      ['y', '2'],
    ]);
    expect(pairs('host:web1, port:80,,x', { sep: ':', delimAll: ', ' })).toEqual([
      ['host', 'web1'],
      ['port', '80,,x'],
    ]);
    // a quote among the delimiters turns quoting off
    expect(pairs('a="1" b=2', { delims: '" ' })).toEqual([
      ['a', ''],
      ['b', '2'],
    ]);
  });

  it('treats Unicode whitespace as a delimiter like /\\s/', () => {
    expect(pairs('a=1\u00a0b=2\u2003c=3')).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
    ]);
  });

  it('stops once every wanted key is found, with the same values (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', 'k', '=', ':', ',', ' ', '\t', '"', 'x', '\u00a0', 'é');
    const text = fc.array(alphabet, { maxLength: 60 }).map((cs) => cs.join(''));
    const opts = fc.record({ sep: fc.constantFrom('=', ':', '=='), clean: fc.boolean(), delimAll: fc.option(fc.constantFrom(',', ', ', ',,'), { nil: undefined }) });
    const wanted = fc.uniqueArray(fc.constantFrom('a', 'b', 'k', 'x', 'ab'), { minLength: 1 });
    fc.assert(
      fc.property(text, opts, wanted, (t, o, w) => {
        const full = parseKV(t, o);
        const early = parseKV(t, o, new Set(w));
        for (const k of w) expect(early.get(k)).toBe(full.get(k));
        for (const [k, v] of full) expect(t.includes(k) && t.includes(v)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers like the reference parser on tricky texts, options and wanted keys (property)', () => {
    const key = fc.constantFrom('a', 'b', 'k', 'ab', 'status', 'x', 'é', '');
    const char = fc.constantFrom('=', ':', '==', ' ', '\t', '"', '|', ',', ', ', '\u00a0', '\u2003', '\n', 'x', 'é', '""', '"a b"');
    const pair = fc.tuple(
      key,
      fc.constantFrom('=', ':', '==', ' = ', '=\t'),
      fc.constantFrom('', '1', 'v w', '"q"', '" q "', '\u00a0', 'é'),
      fc.constantFrom(' ', '|', ', ', '\t', ''),
    );
    const token = fc.oneof(
      key,
      char,
      pair.map((p) => p.join('')),
    );
    const text = fc.array(token, { maxLength: 30 }).map((ts) => ts.join(''));
    const opts = fc.record({
      sep: fc.constantFrom('=', ':', '=='),
      delims: fc.constantFrom(undefined, ' |', '"', ',é'),
      delimAll: fc.constantFrom(undefined, undefined, ', ', '|'),
      clean: fc.boolean(),
    });
    const wanted = fc.option(fc.uniqueArray(fc.constantFrom('a', 'b', 'k', 'ab', 'x', 'é', 'status', '', ' a', 'a b'), { maxLength: 4 }), { nil: undefined, freq: 4 });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), opts, wanted, (ts, o, w) => {
        const set = w && new Set(w);
        const parse = compileKV(o, set);
        for (const t of ts) {
          const ref = [...referenceParseKV(t, o, set)].filter(([k]) => !set || set.has(k));
          expect([...parse(t)]).toEqual(ref);
          expect([...parseKV(t, o, set)]).toEqual(ref);
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('is linear on hostile input', () => {
    const t = Date.now();
    parseKV('='.repeat(300_000), DEF);
    parseKV(' '.repeat(300_000) + '=', DEF);
    parseKV('a="'.repeat(100_000), DEF);
    parseKV(', '.repeat(100_000) + 'k:v', { sep: ':', delimAll: ', ', clean: true });
    expect(Date.now() - t).toBeLessThan(2000);
  });
});

describe('kv module', () => {
  const FORTI = linesToEntries([
    'date=2022-09-26 time=10:57:08 devname="fortigate" level="critical" logdesc="FortiGate update failed" msg="Fortigate scheduled update failed"',
    'date=2022-09-27 devname="fortigate" level="notice" msg="ok"',
    'x EQUALS 1 y EQUALS 2',
  ]);

  it('extracts the page examples', () => {
    expect(strings('kv -q devname level=="critical" logdesc msg', FORTI, ['devname', 'level', 'logdesc', 'msg'])).toEqual([
      ['fortigate', 'critical', 'FortiGate update failed', 'Fortigate scheduled update failed'],
    ]);
    expect(strings('kv -sep EQUALS y', FORTI, ['y'])[2]).toEqual(['2']);
  });

  it.each([
    ['kv time', [0, 1, 2]],
    ['kv -s time', [0]],
    ['kv -s devname msg', [0, 1]],
    ['kv level!="critical"', [1, 2]],
    ['kv -s level!="critical"', [1]],
  ])('filters: %s', (q, lines) => {
    expect(kept(q, FORTI)).toEqual(lines);
  });

  it('reads an enumerated value with -e', () => {
    expect(strings('kv msg | kv -e msg -sep " " -d "," Fortigate', FORTI, ['Fortigate'])).toEqual([['scheduled update failed'], [undefined], [undefined]]);
  });

  it.each([
    ['kv', 'ModuleError: kv: missing key argument'],
    ['kv -sep "" a', 'ModuleError: kv: separator and delimiters must not be empty'],
    ['kv -d "," -dall ", " a', 'ModuleError: kv: -d and -dall cannot be used together'],
    ['kv -x a', 'ModuleError: kv: unknown flag -x'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('kv -q level | count by level | table level count', FORTI);
  });
});
