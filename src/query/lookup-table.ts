/**
 * Lookup tables (`lookup -r`): a CSV with a header row, parsed once per search into a compact
 * form — every cell's UTF-8 bytes in one buffer plus an offset per cell — that crosses to worker
 * threads without a copy when its buffers are SharedArrayBuffers. Each worker only builds the
 * Map index of the columns it matches on (modules/lookup.ts).
 */
import { ModuleArgError } from './types';

export interface LookupTable {
  columns: string[];
  rows: number;
  /** UTF-8 bytes of every cell, row by row (read-only once built) */
  bytes: Uint8Array;
  /** cell i (row r, column c: i = r * columns.length + c) is bytes[offsets[i], offsets[i + 1]) */
  offsets: Uint32Array;
}

/** A CSV that is not a usable table, or a table over the size bound. */
export class LookupTableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LookupTableError';
  }
}

export interface TableBuildOptions {
  /** refuse tables whose cells take more bytes than this */
  maxBytes?: number;
  /** back the table with SharedArrayBuffers (default true): worker threads then share it */
  shared?: boolean;
}

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

const bytesOf = (n: number, shared: boolean): Uint8Array => (shared ? new Uint8Array(new SharedArrayBuffer(n)) : new Uint8Array(n));

function finishOffsets(offs: Uint32Array, n: number, shared: boolean): Uint32Array {
  const out = shared ? new Uint32Array(new SharedArrayBuffer(n * 4)) : new Uint32Array(n);
  out.set(offs.subarray(0, n));
  return out;
}

/** Text of cell `i` (row r, column c: i = r * columns.length + c). */
export function decodeCell(t: LookupTable, i: number): string {
  return Buffer.from(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength).toString('utf8', t.offsets[i], t.offsets[i + 1]);
}

function checkHeader(columns: string[]): void {
  if (!columns.length) throw new LookupTableError('the CSV has no header row');
  const seen = new Set<string>();
  columns.forEach((c, i) => {
    if (c === '') throw new LookupTableError(`column ${i + 1} of the header row has no name`);
    if (seen.has(c)) throw new LookupTableError(`the header row names column "${c}" twice`);
    seen.add(c);
  });
}

/** Bytes parsed between two pauses of parseCsvTableAsync (a few ms of work). */
const SLICE_BYTES = 1 << 20;

/**
 * Parses CSV (RFC 4180: `"` quoting with `""` escapes, LF or CRLF line ends, an optional UTF-8
 * BOM; empty lines are skipped). The first record is the header: unique, non-empty names. Every
 * other record must have as many fields as the header.
 */
export function parseCsvTable(input: Uint8Array, opts: TableBuildOptions = {}): LookupTable {
  const steps = csvSteps(input, opts);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** parseCsvTable that lets the event loop run every SLICE_BYTES (a large table on the web server). */
export async function parseCsvTableAsync(input: Uint8Array, opts: TableBuildOptions = {}): Promise<LookupTable> {
  const steps = csvSteps(input, opts);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function* csvSteps(input: Uint8Array, opts: TableBuildOptions): Generator<void, LookupTable, void> {
  if (opts.maxBytes !== undefined && input.length > opts.maxBytes) {
    throw new LookupTableError(`it is ${input.length} bytes, more than the limit of ${opts.maxBytes} bytes`);
  }
  const shared = opts.shared ?? true;
  const n = input.length;
  let i = n >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0;
  const out = bytesOf(Math.max(1, n), shared);
  let offs = new Uint32Array(1024);
  let nOffs = 0;
  let w = 0;
  let line = 1;
  let columns: string[] | undefined;
  let records = 0;
  let paused = 0;
  const pushOffset = (v: number) => {
    if (nOffs === offs.length) {
      const bigger = new Uint32Array(offs.length * 2);
      bigger.set(offs);
      offs = bigger;
    }
    offs[nOffs++] = v;
  };
  while (i < n) {
    // Skip empty lines.
    if (input[i] === LF) {
      i++;
      line++;
      continue;
    }
    if (input[i] === CR && input[i + 1] === LF) {
      i += 2;
      line++;
      continue;
    }
    const recordStart = nOffs;
    const recordLine = line;
    for (;;) {
      pushOffset(w);
      if (input[i] === QUOTE) {
        i++;
        for (;;) {
          if (i >= n) throw new LookupTableError(`line ${recordLine}: a quoted field is not closed`);
          const c = input[i];
          if (c === QUOTE) {
            if (input[i + 1] === QUOTE) {
              out[w++] = QUOTE;
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === LF) line++;
          out[w++] = c;
          i++;
        }
        const c = input[i];
        if (i < n && c !== COMMA && c !== LF && !(c === CR && input[i + 1] === LF)) {
          throw new LookupTableError(`line ${line}: unexpected character after a quoted field`);
        }
      } else {
        while (i < n) {
          const c = input[i];
          if (c === COMMA || c === LF || (c === CR && input[i + 1] === LF)) break;
          out[w++] = c;
          i++;
        }
      }
      if (i < n && input[i] === COMMA) {
        i++;
        continue;
      }
      break;
    }
    // End of record: at a line end or the end of the input.
    if (i < n) {
      i += input[i] === CR ? 2 : 1;
      line++;
    }
    const fields = nOffs - recordStart;
    if (!columns) {
      pushOffset(w);
      const header: LookupTable = { columns: [], rows: 0, bytes: out, offsets: offs };
      columns = Array.from({ length: fields }, (_, k) => decodeCell(header, k).trim());
      checkHeader(columns);
      nOffs = 0;
      w = 0;
      continue;
    }
    if (fields !== columns.length) {
      throw new LookupTableError(`line ${recordLine} has ${fields} field${fields === 1 ? '' : 's'}, the header row has ${columns.length}`);
    }
    records++;
    if (i - paused >= SLICE_BYTES) {
      paused = i;
      yield;
    }
  }
  if (!columns) throw new LookupTableError('the CSV is empty (a header row is required)');
  pushOffset(w);
  return { columns, rows: records, bytes: out, offsets: finishOffsets(offs, nOffs, shared) };
}

/** A table from rows of strings (an inner query's table result). */
export function tableFromRows(columns: string[], rows: string[][], opts: TableBuildOptions = {}): LookupTable {
  let size = 0;
  for (const r of rows) for (const cell of r) size += Buffer.byteLength(cell, 'utf8');
  if (opts.maxBytes !== undefined && size > opts.maxBytes) {
    throw new LookupTableError(`its table takes ${size} bytes, more than the limit of ${opts.maxBytes} bytes`);
  }
  const shared = opts.shared ?? true;
  const bytes = bytesOf(Math.max(1, size), shared);
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nCells = rows.length * columns.length;
  const offsets = shared ? new Uint32Array(new SharedArrayBuffer((nCells + 1) * 4)) : new Uint32Array(nCells + 1);
  let w = 0;
  let k = 0;
  for (const r of rows) {
    for (let c = 0; c < columns.length; c++) {
      offsets[k++] = w;
      w += buf.write(r[c] ?? '', w, 'utf8');
    }
  }
  offsets[k] = w;
  return { columns: [...columns], rows: rows.length, bytes, offsets };
}

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** `alone`: the only cell of its line, which must not read as an empty (skipped) line. */
function csvCell(s: string, alone = false): string {
  return NEEDS_QUOTES.test(s) || (alone && s === '') ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text of a table (header row, then one line per row; LF line ends), as `parseCsvTable` reads it. */
export function tableToCsv(columns: string[], rows: string[][]): string {
  const lines = [columns.map((c) => csvCell(c)).join(',')];
  for (const r of rows) lines.push(columns.map((_, c) => csvCell(r[c] ?? '', columns.length === 1)).join(','));
  return `${lines.join('\n')}\n`;
}

/** Flags of `table` that write the table back as a resource (`-save name [-csv]`). */
export const TABLE_SAVE_FLAGS = { save: 'value', csv: 'bool', format: 'value', update: 'value', delete: 'value' } as const;

/** The resource name of `table -save <name>`, undefined without -save; throws for what is not supported. */
export function tableSaveTarget(flags: Record<string, string | true>): string | undefined {
  for (const f of ['update', 'delete']) if (flags[f] !== undefined) throw new ModuleArgError(`-${f} is not supported (-save replaces the whole resource)`);
  if (flags.format !== undefined && flags.format !== 'csv') throw new ModuleArgError(`-format ${String(flags.format)} is not supported: tables are saved as CSV`);
  const save = flags.save;
  if (save === undefined) {
    if (flags.csv !== undefined || flags.format !== undefined) throw new ModuleArgError(`-${flags.csv !== undefined ? 'csv' : 'format'} needs -save <name>`);
    return undefined;
  }
  if (typeof save !== 'string' || !/^(?!\.{1,2}$)[^\x00-\x1f\x7f/\\]{1,255}$/.test(save)) {
    throw new ModuleArgError('-save needs a resource name of 1 to 255 characters without control characters, "/" or "\\"');
  }
  return save;
}
