import { Entry, toSearchEntry } from '../query';
import { decodeBatch, encodeBatch, encodeEntry } from './entry-encoding';
import { StreamMerge } from './stream-merge';

const entry = (ts: number, data: string, evs: Array<[string, string | number]> = []): Entry => ({ ts, tag: 3, src: '10.0.0.1', data: Buffer.from(data), evs: new Map(evs) });

describe('entry encoding in scan workers', () => {
  const entries = [entry(3_000_000, 'first "quoted"\n', [['host', 'web1']]), entry(2_000_000, 'ünïcode'), entry(1_000_000, '', [['n', 42]])];

  it('encodes each entry as the finished-result path writes it', () => {
    expect(JSON.parse(encodeEntry(entries[0], 'json').toString())).toEqual(toSearchEntry(entries[0]));
    expect(encodeEntry(entries[1], 'text').toString()).toBe('ünïcode\n');
    expect(encodeEntry(entries[2], 'text').toString()).toBe('\n');
  });

  it('round-trips a batch through one transferable buffer, keeping times and order', () => {
    const batch = encodeBatch(entries, 'json');
    // Three separate ArrayBuffers owned by the batch alone, so postMessage can transfer them.
    expect(batch.bytes.byteOffset).toBe(0);
    expect(batch.bytes.buffer.byteLength).toBe(batch.bytes.byteLength);
    const decoded = decodeBatch(batch);
    expect(decoded.map((d) => d.ts)).toEqual([3_000_000, 2_000_000, 1_000_000]);
    expect(decoded.map((d) => JSON.parse(d.bytes.toString()))).toEqual(entries.map(toSearchEntry));
    expect(decodeBatch(encodeBatch([], 'text'))).toEqual([]);
  });

  it('merges encoded entries of several workers newest first', () => {
    const m = new StreamMerge<{ ts: number; bytes: Buffer }>(2);
    expect(m.add(0, decodeBatch(encodeBatch([entries[0], entries[2]], 'text')), 1_000_000)).toEqual([]);
    const out = [...m.add(1, decodeBatch(encodeBatch([entries[1]], 'text')), 2_000_000), ...m.finish(0), ...m.finish(1)];
    expect(out.map((e) => e.bytes.toString())).toEqual(['first "quoted"\n\n', 'ünïcode\n', '\n']);
  });
});
