import fc from 'fast-check';
import { jsonDeeperThan } from '../common/validation/json-depth';
import { HecBatch, HecError, splitConcatenatedJson, splitEvents } from './hec.parse';

/** The split as it was written first (character by character): the reference for the faster one. */
function referenceSplit(text: string): HecBatch<string> {
  const items: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  const fail = () => ({ items, failure: new HecError(400, 6, 'Invalid data format', items.length) });
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (depth === 0 && /\s/.test(ch)) continue;
    if (depth === 0) start = i;
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
    else if (depth === 0) return fail();
    if (depth < 0) return fail();
    if (depth === 0) items.push(text.slice(start, i + 1));
  }
  if (depth !== 0 || inString) return fail();
  return { items };
}

const comparable = (b: HecBatch<string>) => ({
  items: b.items,
  failure: b.failure && { status: b.failure.status, code: b.failure.hecCode, message: b.failure.message, invalidEvent: b.failure.invalidEvent },
});

describe('splitEvents (HEC bodies)', () => {
  it('splits as the character-by-character reference does, and counts each event’s depth as jsonDeeperThan does (property)', () => {
    const piece = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      '\\"',
      '\\\\',
      ' ',
      '\n',
      '\t',
      '\u00a0',
      '\u2028',
      '\ufeff',
      '\u0085',
      'a',
      '1',
      ':',
      ',',
      '😀',
      '\ud800',
      '{"event":"x"}',
      '{"a":"}{"}',
    );
    const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const got = splitEvents(t);
        expect(comparable(got)).toEqual(comparable(referenceSplit(t)));
        expect(comparable(splitConcatenatedJson(t))).toEqual(comparable(referenceSplit(t)));
        expect(got.depths).toHaveLength(got.items.length);
        got.items.forEach((item, i) => {
          for (const max of [0, 1, 2, 3, 5]) expect(got.depths[i] > max).toBe(jsonDeeperThan(item, max));
        });
      }),
      { numRuns: 5000 },
    );
  });

  it('reads long strings full of escapes in linear time', () => {
    const long = `{"event":"${'\\\\'.repeat(200_000)}\\"${'x'.repeat(200_000)}"}`.repeat(5);
    const t0 = Date.now();
    const got = splitEvents(long);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(got.items).toHaveLength(5);
    expect(got.failure).toBeUndefined();
    expect(got.depths).toEqual([1, 1, 1, 1, 1]);
  });
});
