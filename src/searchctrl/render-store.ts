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
import { CondensedHeader, maxResultBytes, readResultHeader, RESULT_FILE, resultCache, ResultKind, serializeResult, StoredResult } from './stored-result';

export { RESULT_FILE, serializeResult } from './stored-result';
export type { ResultKind, StoredResult } from './stored-result';
export const DATA_FILE = 'entries.jsonl';
export const INDEX_FILE = 'entries.idx';
const REC = 16;
const SCAN_CHUNK = 64 * 1024;

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
  ) {}

  /** A new, empty store (the directory must not exist yet). */
  static async create(dir: string, limitBytes: number): Promise<RenderStore> {
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const s = new RenderStore(dir, limitBytes);
    s.data = await fsp.open(path.join(dir, DATA_FILE), 'a', 0o600);
    s.index = await fsp.open(path.join(dir, INDEX_FILE), 'a', 0o600);
    return s;
  }

  /** A finished store on disk (saved or imported); read-only. */
  static async open(dir: string, limitBytes: number): Promise<RenderStore> {
    const s = new RenderStore(dir, limitBytes);
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
    const run = this.queue.then(() => this.write(entries));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(entries: Entry[]): Promise<void> {
    if (this.closed || !this.data || !this.index || entries.length === 0) return;
    const lines: Buffer[] = [];
    const idx = Buffer.alloc(entries.length * REC);
    let offset = this.dataBytes;
    let n = 0;
    for (const e of entries) {
      const line = Buffer.from(JSON.stringify(toSearchEntry(e)) + '\n', 'utf8');
      if (this.overLimit || offset + line.length + (this.count + n + 1) * REC + this.resultBytes > this.limitBytes) {
        this.overLimit = true;
        const ts = e.ts;
        this.droppedRange = this.droppedRange ? { start: Math.min(this.droppedRange.start, ts), end: Math.max(this.droppedRange.end, ts) } : { start: ts, end: ts };
        continue;
      }
      idx.writeBigUInt64LE(BigInt(offset), n * REC);
      idx.writeBigInt64LE(BigInt(Math.trunc(e.ts)), n * REC + 8);
      lines.push(line);
      offset += line.length;
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
      if (body.length > maxResultBytes() || body.length + this.storeSize + this.indexSize > this.limitBytes) {
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

  /** Index records [first, last) (clamped): offsets and timestamps. */
  private async readIndex(first: number, last: number): Promise<{ offsets: number[]; ts: number[] }> {
    const from = Math.max(0, Math.min(first, this.count));
    const to = Math.max(from, Math.min(last, this.count));
    const offsets: number[] = [];
    const ts: number[] = [];
    if (to === from) return { offsets, ts };
    const fh = await fsp.open(path.join(this.dir, INDEX_FILE), 'r');
    try {
      const buf = Buffer.alloc((to - from) * REC);
      await fh.read(buf, 0, buf.length, from * REC);
      for (let i = 0; i < to - from; i++) {
        offsets.push(Number(buf.readBigUInt64LE(i * REC)));
        ts.push(Number(buf.readBigInt64LE(i * REC + 8)));
      }
    } finally {
      await fh.close();
    }
    return { offsets, ts };
  }

  /** End offset of entry i (the next entry's offset, or the data size for the last one). */
  private async endOf(i: number): Promise<number> {
    if (i + 1 >= this.count) return this.dataBytes;
    return (await this.readIndex(i + 1, i + 2)).offsets[0];
  }

  /** Entries [first, last) by index, parsed. */
  async readRange(first: number, last: number): Promise<SearchEntry[]> {
    const { offsets } = await this.readIndex(first, last);
    if (offsets.length === 0) return [];
    const start = offsets[0];
    const end = await this.endOf(Math.max(0, first) + offsets.length - 1);
    const fh = await fsp.open(path.join(this.dir, DATA_FILE), 'r');
    try {
      const buf = Buffer.alloc(end - start);
      await fh.read(buf, 0, buf.length, start);
      return buf
        .toString('utf8')
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as SearchEntry);
    } finally {
      await fh.close();
    }
  }

  /**
   * Entries with `start <= ts < end` (µs), paged [first, last) within the matches. Scans the
   * index only; reads the data of the returned entries. `total` = number of matches.
   */
  async readByTime(startUs: number, endUs: number, first: number, last: number): Promise<{ entries: SearchEntry[]; total: number }> {
    const wanted: number[] = [];
    let total = 0;
    const per = SCAN_CHUNK / REC;
    for (let i = 0; i < this.count; i += per) {
      const { ts } = await this.readIndex(i, i + per);
      ts.forEach((t, k) => {
        if (t >= startUs && t < endUs) {
          if (total >= first && total < last) wanted.push(i + k);
          total++;
        }
      });
    }
    const entries: SearchEntry[] = [];
    for (const i of wanted) entries.push(...(await this.readRange(i, i + 1)));
    return { entries, total };
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
