import { Writable } from 'node:stream';
import { CompiledQuery, Entry, evToString, formatTs } from '../query';
import { EncodedEntry, encodeEntry } from '../indexer/entry-encoding';
import { csvLine } from './search.format';

const COMMA = Buffer.from(',');

/** Entries encoded between two turns of the event loop. */
const ENCODE_SLICE = 256;

const CONTENT_TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  text: 'text/plain; charset=utf-8',
};

/**
 * Writes the entries of a streaming search to the response as they arrive (render order), in
 * the same formats a finished result has: a JSON array, CSV, or the data lines. Memory stays
 * one batch deep whatever the result's size; a slow client slows the scan down (the promise
 * of `write` waits for the socket to drain). CSV names its EV columns before the first row:
 * those the query's modules produce and those of the first batch.
 */
export class EntryStreamWriter {
  private started = false;
  private first = true;
  private evNames: string[] = [];

  constructor(
    private readonly out: Writable & { status(code: number): unknown; type(t: string): unknown },
    private readonly format: string,
    private readonly compiled: CompiledQuery,
  ) {}

  /** Whether anything was sent: after that a failure can only cut the response off. */
  get hasStarted(): boolean {
    return this.started;
  }

  async write(batch: Entry[]): Promise<void> {
    if (!batch.length) return;
    if (!this.started) this.start(batch);
    // Encoded a slice at a time, yielding between slices: a big batch never holds the event loop
    // (and everyone else's requests) for long.
    for (let i = 0; i < batch.length; i += ENCODE_SLICE) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.out.destroyed) return;
      if (!this.out.write(this.encode(batch.slice(i, i + ENCODE_SLICE)))) await drainedOrClosed(this.out);
    }
  }

  /** Entries the scan workers encoded in this writer's format (json or text). */
  async writeEncoded(batch: EncodedEntry[]): Promise<void> {
    if (!batch.length) return;
    if (!this.started) this.start([]);
    const parts: Buffer[] = [];
    for (const e of batch) {
      if (this.format === 'json' && !this.first) parts.push(COMMA);
      this.first = false;
      parts.push(e.bytes);
    }
    if (this.out.destroyed) return;
    if (!this.out.write(Buffer.concat(parts))) await drainedOrClosed(this.out);
  }

  /** Ends a finished search's answer (an empty result too). */
  end(): void {
    if (!this.started) this.start([]);
    this.out.end(this.format === 'json' ? ']' : '');
  }

  private start(firstBatch: Entry[]): void {
    this.started = true;
    this.out.status(200);
    this.out.type(CONTENT_TYPES[this.format]);
    if (this.format === 'json') this.out.write('[');
    if (this.format === 'csv') {
      const names = new Set(this.compiled.parsed.modules.flatMap((m) => m.instance.produced));
      for (const e of firstBatch) for (const k of e.evs.keys()) names.add(k);
      this.evNames = [...names];
      this.out.write(csvLine(['TIMESTAMP', 'TAG', 'SRC', 'DATA', ...this.evNames]));
    }
  }

  private encode(batch: Entry[]): string | Buffer {
    if (this.format === 'text') return Buffer.concat(batch.map((e) => encodeEntry(e, 'text')));
    if (this.format === 'csv') {
      const rt = this.compiled.runtime;
      return batch
        .map((e) => csvLine([formatTs(e.ts), rt.tagName(e.tag), e.src, e.data.toString('utf8'), ...this.evNames.map((n) => (e.evs.has(n) ? evToString(e.evs.get(n)!) : ''))]))
        .join('');
    }
    const json = batch.map((e) => encodeEntry(e, 'json')).join(',');
    const prefix = this.first ? '' : ',';
    this.first = false;
    return prefix + json;
  }
}

/** Until the client took the buffered bytes, or went away (then nothing more is written). */
function drainedOrClosed(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
  });
}
