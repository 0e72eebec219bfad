import { Writable } from 'node:stream';
import { CompiledQuery, DOWNLOAD_CONTENT_TYPES, Entry, EntryDownload, entryCsvColumns, EntryFormat, liveEntry } from '../query';
import { EncodedEntry } from '../indexer/entry-encoding';

/** Entries encoded between two turns of the event loop. */
const ENCODE_SLICE = 256;

/**
 * Writes the entries of a streaming search to the response as they arrive (render order), with
 * the writer of the finished result (EntryDownload), so both write the same bytes for the same
 * entries. Memory stays one batch deep whatever the result's size; a slow client slows the scan
 * down (the promise of `write` waits for the socket to drain).
 */
export class EntryStreamWriter {
  private started = false;
  private readonly download: EntryDownload;
  private readonly format: EntryFormat;

  /** `format`: one of the renderer's download formats other than archive (the caller checked). */
  constructor(
    private readonly out: Writable & { status(code: number): unknown; type(t: string): unknown },
    format: string,
    private readonly compiled: CompiledQuery,
  ) {
    if (format !== 'json' && format !== 'csv' && format !== 'text') throw new Error(`no streamed ${format} download`);
    this.format = format;
    this.download = new EntryDownload(format, entryCsvColumns(compiled.parsed));
  }

  /** Whether anything was sent: after that a failure can only cut the response off. */
  get hasStarted(): boolean {
    return this.started;
  }

  async write(batch: Entry[]): Promise<void> {
    if (!batch.length) return;
    this.start();
    const rt = this.compiled.runtime;
    const tagName = (t: number) => rt.tagName(t);
    // Encoded a slice at a time, yielding between slices: a big batch never holds the event loop
    // (and everyone else's requests) for long.
    for (let i = 0; i < batch.length; i += ENCODE_SLICE) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.out.destroyed) return;
      const bytes = this.download.entries(batch.slice(i, i + ENCODE_SLICE).map((e) => liveEntry(e, tagName)));
      if (!this.out.write(bytes)) await drainedOrClosed(this.out);
    }
  }

  /** Entries the scan workers encoded in this writer's format (json or text). */
  async writeEncoded(batch: EncodedEntry[]): Promise<void> {
    if (!batch.length) return;
    this.start();
    if (this.out.destroyed) return;
    if (!this.out.write(this.download.encoded(batch.map((e) => e.bytes)))) await drainedOrClosed(this.out);
  }

  /** Ends a finished search's answer (an empty result too). */
  end(): void {
    this.start();
    this.out.end(this.download.end());
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.out.status(200);
    this.out.type(DOWNLOAD_CONTENT_TYPES[this.format]);
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
