import { TagCollector } from './search-results';

describe('TagCollector', () => {
  const line = (tag: number, src = '10.0.0.1') => `${JSON.stringify({ TS: '2024-01-01T00:00:00.000000Z', SRC: src, Tag: tag, Data: 'eA==', Enumerated: [] })}\n`;

  it('reads the tag of each stored line, whatever the chunks it comes in', () => {
    const text = Buffer.from(line(3) + line(7, 'a"b\\'.repeat(16)) + line(3) + line(65535));
    for (const size of [1, 2, 7, 64, text.length]) {
      const c = new TagCollector();
      for (let i = 0; i < text.length; i += size) c.feed(text.subarray(i, i + size));
      expect([size, [...c.tags].sort((a, b) => a - b)]).toEqual([size, [3, 7, 65535]]);
    }
  });

  it('gives up on lines that are not stored entries', () => {
    const c = new TagCollector();
    c.feed(Buffer.from(`{"x":1}\n${'y'.repeat(2000)}\n{"TS":"a","Tag":"no","Data":""}\n`));
    expect(c.tags.size).toBe(0);
  });
});
