/** Renderer pages (product-notes §2.4, §2.6) and streamed downloads, read from the render store. */
import { Readable } from 'node:stream';
import { badRequest, conflict } from '../common/errors/app-error';
import { pointmapCsvRows, SearchEntry, stackgraphCsvRows } from '../query';
import { RendererQueryDto } from './searchctrl.dto';
import { entryCount, LiveSearch } from './search.model';
import { requireSucceeded } from './search-failure';
import { parseTime } from './search-time';
import { limitDroppedRange, toSearchInfo } from './searchctrl.views';

export const DEFAULT_PAGE = 1024;
const FOLLOW_POLL_MS = 200;
const ENTRY_RENDERERS = new Set(['text', 'raw', 'hex']);
export const MAX_PAGE = 10000;

/**
 * The entry range [first, last) a page request asks for (`last` defaults to a page after `first`),
 * cut to MAX_PAGE entries: clients cannot know how many there are, so a larger `last` is no error
 * (the page's AdditionalEntries says that more remain).
 */
function pageRange(first = 0, last = first + DEFAULT_PAGE): { first: number; last: number } {
  if (last < first) throw badRequest('last must not be less than first');
  return { first, last: Math.min(last, first + MAX_PAGE) };
}

function emptyResult(renderModule: string): unknown {
  if (renderModule === 'table') return { Columns: [], Rows: [] };
  if (renderModule === 'chart') return { Names: [], Values: [] };
  return [];
}

/** `{name: number}` for the tags of the given entries (product-notes §2.6: map `Tag` through it). */
export function tagsOf(entries: SearchEntry[], names: Map<number, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of entries) out[names.get(e.Tag) ?? String(e.Tag)] = e.Tag;
  return out;
}

export async function rendererPage(
  s: LiveSearch,
  renderer: string,
  q: RendererQueryDto,
  tagNames: () => Promise<Map<number, string>> = async () => new Map(),
): Promise<Record<string, unknown>> {
  if (renderer !== s.renderModule) throw badRequest(`Search ${s.id} uses the ${s.renderModule} renderer, not ${renderer.slice(0, 64)}`);
  const { first, last } = pageRange(q.first, q.last);
  const startD = parseTime(q.start, 'start');
  const endD = parseTime(q.end, 'end');
  requireSucceeded(s);
  const base = {
    SearchID: s.id,
    EntryCount: entryCount(s),
    EntryCountValid: true,
    Finished: s.flags.finished,
    OverLimit: s.store.overLimit,
    LimitDroppedRange: limitDroppedRange(s),
    SearchInfo: toSearchInfo(s),
  };
  if (s.store.condensed || !ENTRY_RENDERERS.has(s.renderModule)) {
    const result = await s.store.result();
    return { ...base, Entries: result ? result.Entries : emptyResult(s.renderModule), AdditionalEntries: false };
  }
  let entries: SearchEntry[];
  let total: number;
  if (startD || endD) {
    const startUs = (startD ?? s.start).getTime() * 1000;
    const endUs = (endD ?? s.end).getTime() * 1000;
    const r = await s.store.readByTime(startUs, endUs, first, last);
    entries = r.entries;
    total = r.total;
  } else {
    entries = await s.store.readRange(first, last);
    total = s.store.count;
  }
  return {
    ...base,
    Entries: entries,
    Tags: tagsOf(entries, entries.length ? await tagNames().catch(() => new Map<number, string>()) : new Map()),
    AdditionalEntries: total > last || !s.flags.finished,
    EntryRange: { First: first, Last: first + entries.length, StartTS: (startD ?? s.start).toISOString(), EndTS: (endD ?? s.end).toISOString() },
  };
}

const csvCell = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvRow = (cells: Array<string | number>): string => cells.map((c) => csvCell(String(c))).join(',') + '\n';

export const CONTENT_TYPES: Record<string, string> = {
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  archive: 'application/gzip',
};

export const EXTENSIONS: Record<string, string> = { json: 'json', csv: 'csv', text: 'txt', archive: 'tar.gz' };

/** Entries results, streamed line by line from the data file. */
async function* entryLines(s: LiveSearch, format: string): AsyncGenerator<string> {
  if (format === 'json') yield '[';
  if (format === 'csv') yield csvRow(['TS', 'SRC', 'Tag', 'Data']);
  let n = 0;
  let pos = 0;
  // A running search streams until it completes (product-notes §2.7 Downloads).
  for (;;) {
    const done = s.flags.finished || s.removed;
    const end = s.store.dataBytes;
    for await (const line of s.store.lines(pos, end)) {
      if (format === 'json') {
        yield (n++ > 0 ? ',\n' : '\n') + line;
        continue;
      }
      const e = JSON.parse(line) as SearchEntry;
      const data = Buffer.from(e.Data, 'base64').toString('utf8');
      yield format === 'csv' ? csvRow([e.TS, e.SRC, e.Tag, data]) : data + '\n';
    }
    pos = end;
    if (done) break;
    await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
  }
  // The headers are out: a search that failed meanwhile cuts the response, so it never looks complete.
  requireSucceeded(s);
  if (format === 'json') yield '\n]\n';
}

async function* condensedLines(s: LiveSearch, format: string): AsyncGenerator<string> {
  const r = await s.store.result();
  if (!r) return;
  if (format === 'json') {
    yield JSON.stringify(r.Entries);
    return;
  }
  switch (r.kind) {
    case 'table':
      yield csvRow(r.Entries.Columns);
      for (const row of r.Entries.Rows) yield csvRow(row.Row);
      return;
    case 'chart':
      yield csvRow(['TS', ...r.Entries.Names]);
      for (const v of r.Entries.Values) yield csvRow([v.TS, ...v.Data]);
      return;
    case 'gauge':
      yield csvRow(['Name', 'Magnitude', 'Min', 'Max']);
      for (const g of r.Entries) yield csvRow([g.Name, g.Magnitude, g.Min, g.Max]);
      return;
    case 'stackgraph':
      for (const row of stackgraphCsvRows(r.Entries)) yield csvRow(row);
      return;
    case 'pointmap':
      for (const row of pointmapCsvRows(r.Entries)) yield csvRow(row);
      return;
  }
}

/** A json/csv/text download as a stream (archive is built by archive.ts). */
export function downloadStream(s: LiveSearch, format: string): Readable {
  if (s.store.condensed) return Readable.from(condensedLines(s, format));
  if (!ENTRY_RENDERERS.has(s.renderModule) && !s.flags.finished) throw conflict('The search is still running; download its results once it has finished');
  return Readable.from(entryLines(s, format));
}
