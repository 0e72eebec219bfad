/** Renderer pages (product-notes §2.4, §2.6) and streamed downloads, read from the render store. */
import { Readable } from 'node:stream';
import { badRequest, conflict } from '../common/errors/app-error';
import { assertUnreachable, condensedChunks, emptyResult, EntryDownload, entryCsvColumns, parseQuery, resultKindOf, SearchEntry, storedEntry, streamsEntries } from '../query';
import { RendererQueryDto } from './searchctrl.dto';
import { entryCount, LiveSearch } from './search.model';
import { requireSucceeded } from './search-failure';
import { parseTime } from './search-time';
import { limitDroppedRange, toSearchInfo } from './searchctrl.views';

export const DEFAULT_PAGE = 1024;
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

/**
 * Whether the search's pages and downloads read its entries as they arrive (text, raw, hex), rather
 * than one condensed result once it has finished.
 */
export function pagesEntries(s: LiveSearch): boolean {
  return !s.store.condensed && streamsEntries(resultKindOf(s.renderModule));
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
  if (!pagesEntries(s)) {
    const result = (await s.store.result()) ?? emptyResult(resultKindOf(s.renderModule));
    return { ...base, Entries: result.Entries, AdditionalEntries: false };
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

type TagNames = () => Promise<Map<number, string>>;

/** EV columns of an entries CSV (EntryDownload): what the search's modules produce. */
function csvColumns(s: LiveSearch): string[] {
  try {
    return entryCsvColumns(parseQuery(s.effectiveQuery));
  } catch {
    return []; // an imported archive's query this service cannot parse: the first entry's EVs only
  }
}

/** Entries results, streamed from the data file with the direct search's writer. */
async function* entryChunks(s: LiveSearch, format: 'json' | 'csv' | 'text', tagNames: TagNames): AsyncGenerator<string | Buffer> {
  const w = new EntryDownload(format, format === 'csv' ? csvColumns(s) : []);
  const names = format === 'csv' ? await tagNames().catch(() => new Map<number, string>()) : new Map<number, string>();
  const tagName = (t: number) => names.get(t) ?? String(t);
  let pos = 0;
  // A running search streams until it completes (product-notes §2.7 Downloads).
  for (;;) {
    const changed = s.store.changed();
    const done = s.flags.finished || s.flags.removed;
    const end = s.store.dataBytes;
    for await (const line of s.store.lines(pos, end)) {
      const chunk = w.entries([storedEntry(line, tagName)]);
      if (chunk.length) yield chunk;
    }
    pos = end;
    if (done) break;
    await changed;
  }
  // The headers are out: a search that failed meanwhile cuts the response, so it never looks complete.
  requireSucceeded(s);
  const tail = w.end();
  if (tail) yield tail;
}

/** A condensed result (or, when none was stored, the empty result of the renderer's kind). */
async function* condensedDownload(s: LiveSearch, format: 'json' | 'csv'): AsyncGenerator<string> {
  const r = (await s.store.result()) ?? emptyResult(resultKindOf(s.renderModule));
  if (r.kind === 'entries') throw new Error('an entries result is not condensed');
  yield* condensedChunks(r, format);
}

/**
 * A json/csv/text download as a stream (archive is built by archive.ts); `format` is one of the
 * search's download formats. `tagNames` names the csv's TAG column.
 */
export function downloadStream(s: LiveSearch, format: 'json' | 'csv' | 'text', tagNames: TagNames): Readable {
  if (pagesEntries(s)) return Readable.from(entryChunks(s, format, tagNames));
  if (!s.store.condensed && !s.flags.finished) throw conflict('The search is still running; download its results once it has finished');
  switch (format) {
    case 'json':
    case 'csv':
      return Readable.from(condensedDownload(s, format));
    case 'text':
      throw badRequest(`Format "text" is not available for the ${s.renderModule} renderer`);
    default:
      return assertUnreachable(format);
  }
}
