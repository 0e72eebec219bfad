import { JsonReader, JsonSyntaxError } from './json-reader';

async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
  const b = Buffer.from(text);
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

/** The members of an object and each element of its arrays, raw, as a caller walks them. */
async function walk(r: JsonReader): Promise<unknown[]> {
  const out: unknown[] = [];
  if (!(await r.open('{'))) throw new Error('not an object');
  for (let first = true; await r.next('}', first); first = false) {
    const key = await r.key();
    if (await r.open('[')) {
      const items: unknown[] = [];
      for (let f = true; await r.next(']', f); f = false) items.push(JSON.parse((await r.raw(1 << 20)).toString()));
      out.push([key, items]);
    } else if (key.startsWith('skip')) {
      await r.skip();
      out.push([key, 'skipped']);
    } else out.push([key, JSON.parse((await r.raw(1 << 20)).toString())]);
  }
  await r.end();
  return out;
}

describe('JsonReader', () => {
  const text = ' { "a" : [ 1 , -2.5e3, "x\\\\\\"]}" , {"b":[true,null]} ] ,"skip me":{"deep":[[[{}]]],"s":"}}]]"},"n":false, "s":"\\u00e9\\n" } ';
  const expected = [
    ['a', [1, -2500, 'x\\"]}', { b: [true, null] }]],
    ['skip me', 'skipped'],
    ['n', false],
    ['s', 'é\n'],
  ];

  it.each([1, 2, 3, 7, 1000])('walks a document in chunks of %i bytes', async (size) => {
    expect(await walk(JsonReader.of(chunked(text, size)))).toEqual(expected);
  });

  it('takes a scalar that ends the text', async () => {
    const r = JsonReader.of(chunked(' 12345', 2));
    expect((await r.raw(10)).toString()).toBe('12345');
    await r.end();
  });

  it('refuses values over the bound, unfinished text and trailing data', async () => {
    await expect(JsonReader.of(chunked('"abcdef"', 3)).raw(4, () => new Error('big'))).rejects.toThrow('big');
    await expect(walk(JsonReader.of(chunked('{"a":[1,2', 2)))).rejects.toThrow(JsonSyntaxError);
    await expect(walk(JsonReader.of(chunked('{"a":1} x', 2)))).rejects.toThrow(JsonSyntaxError);
    await expect(walk(JsonReader.of(chunked('{"a" 1}', 2)))).rejects.toThrow(JsonSyntaxError);
    await expect(walk(JsonReader.of(chunked('{"a":1 "b":2}', 2)))).rejects.toThrow();
  });

  describe('elements', () => {
    const all = async (text: string, chunk: number, batch: number) => {
      const r = JsonReader.of(chunked(text, chunk));
      if (!(await r.open('['))) throw new Error('not an array');
      const out: unknown[] = [];
      for (let t = await r.elements(batch, 1000, () => new Error('big')); t; t = await r.elements(batch, 1000, () => new Error('big'))) {
        out.push(...(JSON.parse(`[${t.toString()}]`) as unknown[]));
      }
      await r.end();
      return out;
    };
    const text = ' [ {"a":"x,]\\"}", "b":[1,2]}, "s\\\\", 3 ,[[],{}] , null ] ';
    const expected = [{ a: 'x,]"}', b: [1, 2] }, 's\\', 3, [[], {}], null];

    it.each([
      [1, 1],
      [2, 5],
      [3, 1000],
      [1000, 1],
      [1000, 1000],
    ])('gives every element once, in chunks of %i bytes and batches of %i', async (chunk, batch) => {
      expect(await all(text, chunk, batch)).toEqual(expected);
    });

    it('reads an empty array and refuses missing elements', async () => {
      expect(await all('[ ]', 1, 1)).toEqual([]);
      for (const bad of ['[1,]', '[,1]', '[1,,2]']) {
        await expect(all(bad, 1, 1)).rejects.toThrow();
        await expect(all(bad, 100, 100)).rejects.toThrow();
      }
      await expect(all('[1, 2', 2, 1)).rejects.toThrow(JsonSyntaxError);
      await expect(all(`["${'x'.repeat(2000)}"]`, 64, 1)).rejects.toThrow('big');
    });
  });
});
