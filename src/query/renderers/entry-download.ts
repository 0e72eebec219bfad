/**
 * The json, csv and text downloads of an entries result (text, raw, hex), one entry at a time, so
 * that a direct search streaming its entries, a direct search answering a finished result and a
 * persistent search's download write the same bytes for the same entries:
 * - json: `[e1,e2,...]`, each entry the wire SearchEntry (toSearchEntry), no whitespace;
 * - text: each entry's data bytes followed by `\n`;
 * - csv: `TIMESTAMP,TAG,SRC,DATA,<EV columns>` then one row per entry (CRLF, result-csv.ts). The
 *   EV columns are named before the first row, from the first entry: its EVs in its order, then
 *   those the query's modules produce that it lacks (entryCsvColumns). EVs of later entries
 *   outside these columns are left out; a missing one is an empty cell.
 */
import type { ParsedQuery } from '../parser';
import { SearchEntry, toSearchEntry } from '../output';
import { Entry } from '../types';
import { evToString, formatTs } from '../values';
import { csvLine } from './result-csv';
import { assertUnreachable, DownloadFormat } from './renderer';

/** The download formats of entries other than `archive` (archive copies the render store as is). */
export type EntryFormat = Exclude<DownloadFormat, 'archive'>;

/** One entry as the downloads read it, from a live Entry or from a stored SearchEntry line. */
export interface DownloadEntry {
  /** The wire SearchEntry as JSON. */
  json(): string;
  data(): Buffer;
  /** TIMESTAMP, TAG (its name), SRC. */
  fields(): [string, string, string];
  /** The enumerated values as strings, in their order. */
  evs(): Array<[string, string]>;
}

/** An entry of a running query; `tagName` maps tag numbers (unknown ones read as their digits). */
export function liveEntry(e: Entry, tagName: (tag: number) => string): DownloadEntry {
  return {
    json: () => JSON.stringify(toSearchEntry(e)),
    data: () => e.data,
    fields: () => [formatTs(e.ts), tagName(e.tag), e.src],
    evs: () => [...e.evs].map(([k, v]): [string, string] => [k, evToString(v)]),
  };
}

/** A line of a render store's entries.jsonl (JSON of toSearchEntry, so `json()` is the line itself). */
export function storedEntry(line: string, tagName: (tag: number) => string): DownloadEntry {
  let parsed: SearchEntry | undefined;
  const e = () => (parsed ??= JSON.parse(line) as SearchEntry);
  return {
    json: () => line,
    data: () => Buffer.from(e().Data, 'base64'),
    fields: () => [e().TS, tagName(e().Tag), e().SRC],
    evs: () => e().Enumerated.map((ev): [string, string] => [ev.Name, ev.ValueStr]),
  };
}

/**
 * EVs the entries reaching the renderer may carry by the query's doing: those made by the last
 * condensing module and the modules after it (every module when none condenses).
 */
export function entryCsvColumns(p: ParsedQuery): string[] {
  let from = 0;
  p.modules.forEach((m, i) => {
    if (m.def.condensing) from = i;
  });
  let cols: string[] = [];
  for (const m of p.modules.slice(from)) {
    cols.push(...m.instance.produced);
    const only = m.instance.keepOnly;
    if (only) cols = cols.filter((c) => only.includes(c));
  }
  return [...new Set(cols)];
}

const NEWLINE = Buffer.from('\n');
const COMMA = Buffer.from(',');

/** Writes one entries download: `begin` is implied by the first entry, `end` closes it. */
export class EntryDownload {
  private started = false;
  private first = true;
  private columns: string[] = [];

  /** `produced`: entryCsvColumns of the query (csv only). */
  constructor(
    readonly format: EntryFormat,
    private readonly produced: readonly string[] = [],
  ) {}

  /** The bytes of some entries, after the download's opening when they are the first. */
  entries(batch: DownloadEntry[]): string | Buffer {
    const open = batch.length && !this.started ? this.open(batch[0]) : '';
    switch (this.format) {
      case 'json': {
        const items = batch.map((e) => e.json()).join(',');
        if (!items) return open;
        const sep = this.first ? '' : ',';
        this.first = false;
        return open + sep + items;
      }
      case 'csv':
        return open + batch.map((e) => this.csvRow(e)).join('');
      case 'text':
        return Buffer.concat(batch.flatMap((e) => [e.data(), NEWLINE]));
      default:
        return assertUnreachable(this.format);
    }
  }

  /** Entries already encoded in this format by a scan worker (json or text: entry-encoding.ts). */
  encoded(items: Buffer[]): Buffer {
    const parts: Buffer[] = [];
    if (items.length && !this.started) parts.push(Buffer.from(this.open(undefined)));
    for (const b of items) {
      if (this.format === 'json' && !this.first) parts.push(COMMA);
      this.first = false;
      parts.push(b);
    }
    return Buffer.concat(parts);
  }

  /** The download's closing bytes (with its opening when no entry came). */
  end(): string {
    const open = this.started ? '' : this.open(undefined);
    return open + (this.format === 'json' ? ']' : '');
  }

  private open(first: DownloadEntry | undefined): string {
    this.started = true;
    switch (this.format) {
      case 'json':
        return '[';
      case 'csv': {
        const names = new Set((first?.evs() ?? []).map(([k]) => k));
        for (const k of this.produced) names.add(k);
        this.columns = [...names];
        return csvLine(['TIMESTAMP', 'TAG', 'SRC', 'DATA', ...this.columns]);
      }
      case 'text':
        return '';
      default:
        return assertUnreachable(this.format);
    }
  }

  private csvRow(e: DownloadEntry): string {
    const evs = new Map(e.evs());
    return csvLine([...e.fields(), e.data().toString('utf8'), ...this.columns.map((n) => evs.get(n) ?? '')]);
  }
}
