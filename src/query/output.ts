/** Wire shapes of rendered entries (product-notes §2.6 SearchEntry). */
import { EVValue, Entry } from './types';
import { evToString, formatTs } from './values';

export interface SearchEntry {
  TS: string;
  SRC: string;
  Tag: number;
  Data: string; // base64
  Enumerated: Array<{ Name: string; ValueStr: string; Value: { Type: number; Data: string } }>;
}

/** EV type codes: 1 bytes, 2 bool, 9 int64, 12 float64, 13 unicode string. */
function rawValue(v: EVValue): { Type: number; Data: string } {
  if (Buffer.isBuffer(v)) return { Type: 1, Data: v.toString('base64') };
  if (typeof v === 'boolean') return { Type: 2, Data: Buffer.from([v ? 1 : 0]).toString('base64') };
  if (typeof v === 'number') {
    const b = Buffer.alloc(8);
    if (Number.isSafeInteger(v)) {
      b.writeBigInt64LE(BigInt(v));
      return { Type: 9, Data: b.toString('base64') };
    }
    b.writeDoubleLE(v);
    return { Type: 12, Data: b.toString('base64') };
  }
  return { Type: 13, Data: Buffer.from(v, 'utf8').toString('base64') };
}

export function toSearchEntry(e: Entry): SearchEntry {
  return {
    TS: formatTs(e.ts),
    SRC: e.src,
    Tag: e.tag,
    Data: e.data.toString('base64'),
    Enumerated: [...e.evs].map(([Name, v]) => ({ Name, ValueStr: evToString(v), Value: rawValue(v) })),
  };
}
