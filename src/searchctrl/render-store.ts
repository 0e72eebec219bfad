/**
 * On-disk results of one search: `entries.jsonl` (one wire SearchEntry per line, in render
 * order) with `entries.idx` (16 bytes per entry: data offset u64 LE, timestamp µs i64 LE), or
 * `result.json` for condensing renderers (table, chart, gauge). Pages by entry index or time
 * range read only the index slice and the data bytes they need. Readers following a running
 * search wait on `changed()` instead of polling.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Entry, RenderResult, SearchEntry, toSearchEntry } from '../query';
import { ChangeSignal } from './change-signal';
import type { StoreBudget } from './store-quota';
import type { EncodedEntry } from '../indexer/entry-encoding';
import { CondensedHeader, maxResultBytes, readResultHeader, RESULT_FILE, resultCache, ResultKind, resultPrefix, serializeResult, StoredResult } from './stored-result';

export { RESULT_FILE, serializeResult } from './stored-result';
export type { ResultKind, StoredResult } from './stored-result';
export const DATA_FILE = 'entries.jsonl';
export const INDEX_FILE = 'entries.idx';
const REC = 16;
const SCAN_CHUNK = 64 * 1024;
const NEWLINE = Buffer.from('\n');
/** Bytes read at a time for a page or a condensed result's body. */
const READ_CHUNK = 256 * 1024;

/** Entries of one page: where they lie in the data file (runs of adjacent lines), how many, how many bytes. */
export interface PagePlan {
  /** index of the first entry (of the matches, for a page by time) */
  first: number;
  entries: number;
  bytes: number;
  runs: Array<{ from: number; to: number }>;
}

const newPlan = (first: number): PagePlan => ({ first, entries: 0, bytes: 0, runs: [] });

/** Adds the line [from, to) to a page unless it would pass `maxBytes` (the first one always fits); false when it did not fit. */
function addToPlan(plan: PagePlan, from: number, to: number, maxBytes: number): boolean {
  if (plan.entries > 0 && plan.bytes + (to - from) > maxBytes) return false;
  const run = plan.runs[plan.runs.length - 1];
  if (run && run.to === from) run.to = to;
  else plan.runs.push({ from, to });
  plan.entries++;
  plan.bytes += to - from;
  return true;
}

/** Bytes [from, to) of a file, in chunks of READ_CHUNK. */
async function* fileChunks(file: string, from: number, to: number): AsyncGenerator<Buffer> {
  if (to <= from) return;
  const fh = await fsp.open(file, 'r');
  try {
    for (let pos = from; pos < to;) {
      const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, to - pos));
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) throw new Error(`${path.basename(file)} is shorter than expected`);
      pos += bytesRead;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

export class RenderStore {
  private data?: fsp.FileHandle;
  private index?: fsp.FileHandle;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  count = 0;
  dataBytes = 0;
  resultBytes = 0;
  overLimit = false;
  /** Timestamps (µs) of the first and last entries dropped over the limit. */
  droppedRange?: { start: number; end: number };
  private parsing?: Promise<StoredResult>;
  private readonly changes = new ChangeSignal();
  /** A condensed result is stored: its kind and entry count (the body is read when needed). */
  condensed?: CondensedHeader;

  private constructor(
    public dir: string,
    private readonly limitBytes: number,
    /** The owner's quotas, asked before each write (store-quota.ts); none: only `limitBytes`. */
    readonly budget?: StoreBudget,
  ) {}

  /** A new, empty store (the directory must not exist yet). */
  static async create(dir: string, limitBytes: number, budget?: StoreBudget): Promise<RenderStore> {
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const s = new RenderStore(dir, limitBytes, budget);
    s.data = await fsp.open(path.join(dir, DATA_FILE), 'a', 0o600);
    s.index = await fsp.open(path.join(dir, INDEX_FILE), 'a', 0o600);
    return s;
  }

  /** A finished store on disk (saved or imported); read-only. */
  static async open(dir: string, limitBytes: number, budget?: StoreBudget): Promise<RenderStore> {
    const s = new RenderStore(dir, limitBytes, budget);
    s.closed = true;
    const size = async (f: string) => (await fsp.stat(path.join(dir, f)).catch(() => undefined))?.size ?? 0;
    s.dataBytes = await size(DATA_FILE);
    s.count = Math.floor((await size(INDEX_FILE)) / REC);
    s.resultBytes = await size(RESULT_FILE);
    if (s.resultBytes > 0) s.condensed = await readResultHeader(path.join(dir, RESULT_FILE));
    return s;
  }

  get storeSize(): number {
    return this.dataBytes + this.resultBytes;
  }

  get indexSize(): number {
    return this.count * REC;
  }

  get kind(): ResultKind {
    return this.condensed?.kind ?? 'entries';
  }

  /** Entries the renderer received: the condensed result's count, else the stored entries. */
  get entryCount(): number {
    return this.condensed ? this.condensed.entryCount : this.count;
  }

  /** The condensed result, parsed from disk unless recently read (undefined for entries results). */
  async result(): Promise<StoredResult | undefined> {
    if (!this.condensed) return undefined;
    const cached = resultCache().get(this.dir);
    if (cached) return cached;
    // Readers arriving while it is parsed share that parse: one copy in memory, not one each.
    this.parsing ??= fsp
      .readFile(path.join(this.dir, RESULT_FILE), 'utf8')
      .then((text) => {
        const parsed = JSON.parse(text) as StoredResult;
        resultCache().set(this.dir, parsed, this.resultBytes);
        return parsed;
      })
      .finally(() => (this.parsing = undefined));
    return this.parsing;
  }

  /**
   * The stored condensed result's `Entries` as JSON bytes, copied from its file in chunks (never
   * parsed); undefined without a condensed result.
   */
  async resultEntries(): Promise<AsyncIterable<Buffer> | undefined> {
    if (!this.condensed) return undefined;
    const prefix = Buffer.from(resultPrefix(this.condensed));
    const file = path.join(this.dir, RESULT_FILE);
    const fh = await fsp.open(file, 'r');
    let size: number;
    try {
      size = (await fh.stat()).size;
      const head = Buffer.alloc(prefix.length);
      const tail = Buffer.alloc(1);
      await fh.read(head, 0, head.length, 0);
      await fh.read(tail, 0, 1, size - 1);
      if (!head.equals(prefix) || tail[0] !== 0x7d) throw new Error(`${RESULT_FILE} is not as serializeResult writes it`);
    } finally {
      await fh.close();
    }
    // Opened again when the bytes are wanted: a stream nobody reads holds no file open.
    return fileChunks(file, prefix.length, size - 1);
  }

  /** Resolves at the next change: entries written, the store closed, or `notify()` (see ChangeSignal.next). */
  changed(): Promise<void> {
    return this.changes.next();
  }

  /** Wakes the readers waiting in `changed()`; the search lifecycle calls it when the search's state changes. */
  notify(): void {
    this.changes.notify();
  }

  /** Appends entries (serialised per call, in order); over the limit the rest is dropped. */
  append(entries: Entry[]): Promise<void> {
    return this.enqueue(() => entries.map((e) => ({ ts: e.ts, bytes: Buffer.from(JSON.stringify(toSearchEntry(e)), 'utf8') })));
  }

  /**
   * Appends entries a scan worker already encoded as stored lines (JSON SearchEntry, see
   * entry-encoding.ts): nothing is serialised on this thread.
   */
  appendEncoded(entries: EncodedEntry[]): Promise<void> {
    return this.enqueue(() => entries);
  }

  private enqueue(lines: () => EncodedEntry[]): Promise<void> {
    const run = this.queue.then(() => this.write(lines()));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(entries: EncodedEntry[]): Promise<void> {
    if (this.closed || !this.data || !this.index || entries.length === 0) return;
    const lines: Buffer[] = [];
    const idx = Buffer.alloc(entries.length * REC);
    let offset = this.dataBytes;
    let n = 0;
    for (const e of entries) {
      const size = e.bytes.length + 1;
      // Past RENDER_STORE_LIMIT_BYTES, or past the owner's quotas (counted as written), the rest is dropped.
      if (this.overLimit || offset + size + (this.count + n + 1) * REC + this.resultBytes > this.limitBytes || (this.budget && !this.budget.take(size + REC))) {
        this.overLimit = true;
        const ts = e.ts;
        this.droppedRange = this.droppedRange ? { start: Math.min(this.droppedRange.start, ts), end: Math.max(this.droppedRange.end, ts) } : { start: ts, end: ts };
        continue;
      }
      idx.writeBigUInt64LE(BigInt(offset), n * REC);
      idx.writeBigInt64LE(BigInt(Math.trunc(e.ts)), n * REC + 8);
      lines.push(e.bytes, NEWLINE);
      offset += size;
      n++;
    }
    if (n === 0) return;
    await this.data.write(Buffer.concat(lines));
    await this.index.write(idx.subarray(0, n * REC));
    this.dataBytes = offset;
    this.count += n;
    this.notify();
  }

  /** Stores a condensing result (atomically) or, for entries results the sink did not see, the entries. */
  async finish(result: RenderResult): Promise<void> {
    await this.queue;
    if (result.kind === 'entries') {
      if (this.count === 0 && result.Entries.length > 0) await this.append(result.Entries);
    } else if (!this.closed) {
      const body = Buffer.from(serializeResult(result), 'utf8');
      if (body.length > maxResultBytes() || body.length + this.storeSize + this.indexSize > this.limitBytes || (this.budget && !this.budget.take(body.length))) {
        this.overLimit = true;
      } else {
        const tmp = path.join(this.dir, `${RESULT_FILE}.tmp`);
        await fsp.writeFile(tmp, body, { mode: 0o600 });
        await fsp.rename(tmp, path.join(this.dir, RESULT_FILE));
        this.resultBytes = body.length;
        this.condensed = { kind: result.kind, entryCount: result.EntryCount };
        resultCache().set(this.dir, result, body.length);
      }
    }
    await this.close();
  }

  /** Stops writing and releases file handles (idempotent). */
  async close(): Promise<void> {
    await this.queue;
    this.closed = true;
    const handles = [this.data, this.index];
    this.data = this.index = undefined;
    await Promise.all(handles.flatMap((h) => (h ? [h.close().catch(() => undefined)] : [])));
    this.notify();
  }

  /**
   * Index records [first, last) (clamped): the offset and timestamp of each, and `ends`, where
   * each entry's line ends (the next entry's offset, or the data size after the last one).
   */
  private async readIndex(first: number, last: number): Promise<{ from: number; offsets: number[]; ends: number[]; ts: number[] }> {
    const count = this.count;
    const dataBytes = this.dataBytes;
    const from = Math.max(0, Math.min(first, count));
    const to = Math.max(from, Math.min(last, count));
    const offsets: number[] = [];
    const ts: number[] = [];
    if (to === from) return { from, offsets, ends: [], ts };
    // One record more than asked (when there is one): the end of the last entry asked for.
    const read = Math.min(to + 1, count) - from;
    const fh = await fsp.open(path.join(this.dir, INDEX_FILE), 'r');
    try {
      const buf = Buffer.alloc(read * REC);
      await fh.read(buf, 0, buf.length, from * REC);
      for (let i = 0; i < read; i++) {
        offsets.push(Number(buf.readBigUInt64LE(i * REC)));
        ts.push(Number(buf.readBigInt64LE(i * REC + 8)));
      }
    } finally {
      await fh.close();
    }
    const ends = offsets.slice(1);
    if (ends.length < to - from) ends.push(dataBytes);
    return { from, offsets: offsets.slice(0, to - from), ends: ends.slice(0, to - from), ts: ts.slice(0, to - from) };
  }

  /**
   * The page of entries [first, last) by index, cut after `maxBytes` of stored JSON (never
   * before the first entry: one entry larger than that is a page of its own).
   */
  async planRange(first: number, last: number, maxBytes: number): Promise<PagePlan> {
    const { from, offsets, ends } = await this.readIndex(first, last);
    const plan = newPlan(from);
    for (let i = 0; i < offsets.length && addToPlan(plan, offsets[i], ends[i], maxBytes); i++);
    return plan;
  }

  /**
   * The page of entries with `start <= ts < end` (µs), [first, last) within the matches, cut
   * after `maxBytes` like `planRange`. Scans the index only; `total` = number of matches.
   */
  async planByTime(startUs: number, endUs: number, first: number, last: number, maxBytes: number): Promise<PagePlan & { total: number }> {
    const plan = { ...newPlan(first), total: 0 };
    let full = false;
    const per = SCAN_CHUNK / REC;
    const count = this.count;
    for (let i = 0; i < count; i += per) {
      const { offsets, ends, ts } = await this.readIndex(i, i + per);
      for (let k = 0; k < ts.length; k++) {
        if (ts[k] < startUs || ts[k] >= endUs) continue;
        if (plan.total >= first && plan.total < last && !full) full = !addToPlan(plan, offsets[k], ends[k], maxBytes);
        plan.total++;
      }
    }
    return plan;
  }

  /** The stored JSON lines of a page, in chunks as they come off the disk. */
  async *pageBytes(plan: PagePlan): AsyncGenerator<Buffer> {
    for (const run of plan.runs) yield* fileChunks(path.join(this.dir, DATA_FILE), run.from, run.to);
  }

  /** A page's entries, parsed a slice at a time (the event loop runs between slices). */
  async readPage(plan: PagePlan): Promise<SearchEntry[]> {
    const out: SearchEntry[] = [];
    let text = '';
    const dec = new StringDecoder('utf8');
    for await (const chunk of this.pageBytes(plan)) {
      text += dec.write(chunk);
      const nl = text.lastIndexOf('\n');
      if (nl < 0) continue;
      for (const line of text.slice(0, nl).split('\n')) if (line) out.push(JSON.parse(line) as SearchEntry);
      text = text.slice(nl + 1);
      await new Promise((resolve) => setImmediate(resolve));
    }
    text += dec.end();
    if (text) out.push(JSON.parse(text) as SearchEntry);
    return out;
  }

  /** Entries [first, last) by index, parsed (at most `maxBytes` of them, at least one). */
  async readRange(first: number, last: number, maxBytes = Infinity): Promise<SearchEntry[]> {
    return this.readPage(await this.planRange(first, last, maxBytes));
  }

  /** Entries with `start <= ts < end` (µs), paged [first, last) within the matches (see `planByTime`). */
  async readByTime(startUs: number, endUs: number, first: number, last: number, maxBytes = Infinity): Promise<{ entries: SearchEntry[]; total: number }> {
    const plan = await this.planByTime(startUs, endUs, first, last, maxBytes);
    return { entries: await this.readPage(plan), total: plan.total };
  }

  /** Raw JSON lines of the data bytes [from, to) (whole lines; default: everything stored now), streamed in chunks. */
  async *lines(from = 0, to = this.dataBytes): AsyncGenerator<string> {
    if (to <= from) return;
    const stream = fs.createReadStream(path.join(this.dir, DATA_FILE), { start: from, end: to - 1, highWaterMark: SCAN_CHUNK });
    let rest = '';
    const dec = new StringDecoder('utf8');
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const text = rest + dec.write(chunk);
      const parts = text.split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) if (p) yield p;
    }
    rest += dec.end();
    if (rest) yield rest;
  }
}
