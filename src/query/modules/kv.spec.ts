import fc from 'fast-check';
import { parseKV } from './kv';

/** The first, obviously correct version (character by character), kept as the oracle. */
function referenceKV(text: string, delim: string, sep: string | undefined): Map<string, string> {
  const parts: string[] = [];
  let cur = '';
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') inQuote = !inQuote;
    const isSep = !inQuote && (sep === undefined ? /\s/.test(c) : text.startsWith(sep, i));
    if (isSep) {
      if (cur) parts.push(cur);
      cur = '';
      if (sep !== undefined) i += sep.length - 1;
    } else {
      cur += c;
    }
  }
  if (cur) parts.push(cur);
  const out = new Map<string, string>();
  for (const pair of parts) {
    const at = pair.indexOf(delim);
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    let value = pair.slice(at + delim.length).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!out.has(key)) out.set(key, value);
  }
  return out;
}

describe('parseKV', () => {
  it('splits on whitespace, unquotes values and keeps the first occurrence', () => {
    const kv = parseKV('a=1  b="x y"\tc= 3 a=2 =bad plain', '=', undefined);
    expect([...kv]).toEqual([['a', '1'], ['b', 'x y'], ['c', '']]);
  });

  it('uses custom delimiters and multi-character separators', () => {
    expect([...parseKV('host:web1, port:80,,x', ':', ', ')]).toEqual([['host', 'web1'], ['port', '80,,x']]);
  });

  it('treats Unicode whitespace as a separator like /\\s/', () => {
    expect([...parseKV('a=1\u00a0b=2\u2003c=3', '=', undefined)]).toEqual([['a', '1'], ['b', '2'], ['c', '3']]);
  });

  it('stops once every wanted key is found, with the same values', () => {
    const kv = parseKV('a=1 b=2 c=3 a=9', '=', undefined, new Set(['a', 'b']));
    expect(kv.get('a')).toBe('1');
    expect(kv.get('b')).toBe('2');
    expect(kv.has('c')).toBe(false);
  });

  it('agrees with the reference parser on arbitrary text', () => {
    const alphabet = fc.constantFrom('a', 'b', 'k', '=', ':', ',', ' ', '\t', '"', 'x', '\u00a0', '\u2028', 'é');
    const text = fc.array(alphabet, { maxLength: 60 }).map((cs) => cs.join(''));
    const sep = fc.option(fc.constantFrom(',', ', ', ' ', '"', ',,'), { nil: undefined });
    const delim = fc.constantFrom('=', ':', '==');
    const wanted = fc.option(fc.uniqueArray(fc.constantFrom('a', 'b', 'k', 'x', 'ab'), { minLength: 1 }), { nil: undefined });
    fc.assert(
      fc.property(text, delim, sep, wanted, (t, d, s, w) => {
        const expected = referenceKV(t, d, s);
        const got = parseKV(t, d, s, w ? new Set(w) : undefined);
        if (!w) return expect([...got]).toEqual([...expected]);
        for (const k of w) expect(got.get(k)).toBe(expected.get(k));
      }),
      { numRuns: 3000 },
    );
  });
});
