/**
 * A hash index over a lookup table's rows by one or more columns: open addressing in one
 * Int32Array (4 bytes a slot, two slots a row), hashing and comparing the cells' UTF-8 bytes in
 * place — no string per row, so a table of millions of short rows stays a few tens of MB per
 * worker. The first row with a given key wins.
 */
import { LookupTable } from './lookup-table';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** murmur3's finaliser: FNV's low bits cluster on keys that differ in a few characters. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function hashBytes(h: number, b: Uint8Array, s: number, e: number): number {
  for (let i = s; i < e; i++) h = Math.imul(h ^ b[i], FNV_PRIME);
  // Column separator: ["ab", "c"] and ["a", "bc"] hash apart.
  return Math.imul(h ^ 0xff, FNV_PRIME);
}

function sameBytes(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): boolean {
  if (ae - as !== be - bs) return false;
  for (let i = 0; i < ae - as; i++) if (a[as + i] !== b[bs + i]) return false;
  return true;
}

export class TableIndex {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly view: Buffer;
  private readonly width: number;

  constructor(
    private readonly table: LookupTable,
    private readonly cols: number[],
  ) {
    let size = 16;
    while (size < table.rows * 2) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    this.view = Buffer.from(table.bytes.buffer, table.bytes.byteOffset, table.bytes.byteLength);
    this.width = table.columns.length;
    for (let row = 0; row < table.rows; row++) this.insert(row);
  }

  private rowHash(row: number): number {
    const off = this.table.offsets;
    let h = FNV_OFFSET;
    for (const c of this.cols) {
      const i = row * this.width + c;
      h = hashBytes(h, this.view, off[i], off[i + 1]);
    }
    return mix(h);
  }

  private sameKey(a: number, b: number): boolean {
    const off = this.table.offsets;
    for (const c of this.cols) {
      const i = a * this.width + c;
      const j = b * this.width + c;
      if (!sameBytes(this.view, off[i], off[i + 1], this.view, off[j], off[j + 1])) return false;
    }
    return true;
  }

  private insert(row: number): void {
    for (let i = this.rowHash(row) & this.mask; ; i = (i + 1) & this.mask) {
      const at = this.slots[i];
      if (at === 0) {
        this.slots[i] = row + 1;
        return;
      }
      if (this.sameKey(at - 1, row)) return;
    }
  }

  /** The first row whose key columns hold exactly `values` (UTF-8 bytes), or -1. */
  find(values: Uint8Array[]): number {
    let h = FNV_OFFSET;
    for (const v of values) h = hashBytes(h, v, 0, v.length);
    const off = this.table.offsets;
    for (let i = mix(h) & this.mask; ; i = (i + 1) & this.mask) {
      const at = this.slots[i];
      if (at === 0) return -1;
      const row = at - 1;
      let k = 0;
      for (; k < this.cols.length; k++) {
        const x = row * this.width + this.cols[k];
        if (!sameBytes(this.view, off[x], off[x + 1], values[k], 0, values[k].length)) break;
      }
      if (k === this.cols.length) return row;
    }
  }
}
