/**
 * One entry of a streamed direct search, encoded as its answer carries it: a JSON SearchEntry
 * (without the separating comma) or its data line. Scan workers encode the entries they post
 * (EncodedBatch), so the HTTP event loop only copies bytes; both sides use these functions, so a
 * streamed answer is byte for byte what the finished-result path would write.
 */
import { Entry, toSearchEntry } from '../query';

/** Formats a scan worker can encode itself (CSV names its columns from the first batch: not here). */
export type WorkerEncoding = 'json' | 'text';

export const isWorkerEncoding = (format: string): format is WorkerEncoding => format === 'json' || format === 'text';

const NEWLINE = Buffer.from('\n');

export function encodeEntry(e: Entry, format: WorkerEncoding): Buffer {
  return format === 'json' ? Buffer.from(JSON.stringify(toSearchEntry(e))) : Buffer.concat([e.data, NEWLINE]);
}

/** A batch of encoded entries in one transferable buffer: entry i is bytes[ends[i-1] .. ends[i]). */
export interface EncodedBatch {
  bytes: Uint8Array<ArrayBuffer>;
  ends: Uint32Array<ArrayBuffer>;
  ts: Float64Array<ArrayBuffer>;
}

/** An encoded entry ready for the stream merge (a view into its batch, no copy). */
export interface EncodedEntry {
  ts: number;
  bytes: Buffer;
}

export function encodeBatch(entries: Entry[], format: WorkerEncoding): EncodedBatch {
  const parts = entries.map((e) => encodeEntry(e, format));
  const ends = new Uint32Array(parts.length);
  const ts = new Float64Array(parts.length);
  let at = 0;
  parts.forEach((p, i) => {
    at += p.length;
    ends[i] = at;
    ts[i] = entries[i].ts;
  });
  // A fresh, unpooled buffer: its ArrayBuffer can be transferred to the host without a copy.
  const bytes = new Uint8Array(at);
  at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, ends, ts };
}

export function decodeBatch(b: EncodedBatch): EncodedEntry[] {
  const all = Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
  const out: EncodedEntry[] = new Array(b.ends.length);
  let from = 0;
  for (let i = 0; i < b.ends.length; i++) {
    out[i] = { ts: b.ts[i], bytes: all.subarray(from, b.ends[i]) };
    from = b.ends[i];
  }
  return out;
}
