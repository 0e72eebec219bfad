/**
 * PostgreSQL's binary COPY format for `entry (ts, tag, src, data, evs)`: bytes go in as they are
 * (no hex, no array literal for the server to parse) and timestamps as integers, which makes a
 * batch several times cheaper for PostgreSQL than `INSERT ... SELECT unnest(...)`.
 * Format: https://www.postgresql.org/docs/current/sql-copy.html#SQL-COPY-BINARY-FORMAT
 */
export const COPY_ENTRY_SQL = 'COPY entry (ts, tag, src, data, evs) FROM STDIN (FORMAT binary)';

export interface CopyEntry {
  /** epoch µs */
  ts: number;
  tag: number;
  src: string;
  data: Buffer;
  /** EVs as stored in the jsonb column (already serialised values) */
  evs: Array<[string, unknown]> | null;
}

/** Signature, flags (no OIDs), header extension length. */
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const TRAILER = Buffer.from([0xff, 0xff]);
const NULL_FIELD = Buffer.from([0xff, 0xff, 0xff, 0xff]);
/** PostgreSQL timestamps count µs from 2000-01-01 UTC. */
const PG_EPOCH_US = Date.UTC(2000, 0, 1) * 1000;
const FIELDS = 5;
const JSONB_VERSION = 1;
const TWO_32 = 2 ** 32;

/** The whole COPY stream (header, one tuple per entry, trailer) for one batch. */
export function encodeCopyBinary(entries: CopyEntry[]): Buffer {
  const parts: Buffer[] = [HEADER];
  for (const e of entries) {
    const src = Buffer.from(e.src, 'utf8');
    const evs = e.evs && e.evs.length ? Buffer.from(JSON.stringify(e.evs), 'utf8') : null;
    // field count, ts (len + int64), tag (len + int16), src (len + bytes), data length
    const head = Buffer.allocUnsafe(2 + 12 + 6 + 4 + src.length + 4);
    let o = head.writeInt16BE(FIELDS, 0);
    const pgUs = e.ts - PG_EPOCH_US;
    const hi = Math.floor(pgUs / TWO_32);
    o = head.writeInt32BE(8, o);
    o = head.writeInt32BE(hi, o);
    o = head.writeUInt32BE(pgUs - hi * TWO_32, o);
    o = head.writeInt32BE(2, o);
    o = head.writeInt16BE(e.tag, o);
    o = head.writeInt32BE(src.length, o);
    o += src.copy(head, o);
    head.writeInt32BE(e.data.length, o);
    parts.push(head, e.data);
    if (evs) {
      const h = Buffer.allocUnsafe(5);
      h.writeInt32BE(evs.length + 1, 0);
      h.writeUInt8(JSONB_VERSION, 4);
      parts.push(h, evs);
    } else {
      parts.push(NULL_FIELD);
    }
  }
  parts.push(TRAILER);
  return Buffer.concat(parts);
}
