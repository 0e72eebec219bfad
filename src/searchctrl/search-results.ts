/** Renderer pages (product-notes §2.4, §2.6) and streamed downloads, read from the render store. */
import { Readable } from 'node:stream';
import { refusal } from '../common/errors/app-error';
import { UserGate } from '../common/concurrency/user-gate';
import { assertUnreachable, condensedChunks, emptyResult, EntryDownload, entryCsvColumns, parseQuery, resultKindOf, SearchEntry, storedEntry, streamsEntries } from '../query';
import { RendererQueryDto } from './searchctrl.dto';
import { PagePlan } from './render-store';
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
  if (last < first) throw refusal('RESULT_RANGE_INVERTED');
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

type TagNames = () => Promise<Map<number, string>>;

let pageMaxBytes = 16 * 1024 * 1024;
const pagesRefused = (perUser: number, queue: number) => () => refusal('RENDER_PAGES_BUSY', perUser, queue).retryAfter(1);
/** REST pages streaming at once, per caller (the rest wait their turn, then 429). */
let pageGate = new UserGate(Infinity, 1, 16, pagesRefused(1, 16));

/** Set once at start-up from the configuration (SearchLifecycle): RENDER_PAGE_MAX_BYTES, RENDER_PAGES_PER_USER, RENDER_PAGE_QUEUE. */
export function configurePages(opts: { maxBytes: number; perUser: number; queue: number }): void {
  pageMaxBytes = opts.maxBytes;
  pageGate = new UserGate(Infinity, opts.perUser, opts.queue, pagesRefused(opts.perUser, opts.queue));
}

/** What a renderer page answers, decided before any entry is read: its header fields and which entries. */
interface PagePlanned {
  base: Record<string, unknown>;
  /** entries results: the entries of the page; undefined for a condensed result */
  entries?: { plan: PagePlan; total: number; first: number; startTS: string; endTS: string; finished: boolean };
}

async function planPage(s: LiveSearch, renderer: string, q: RendererQueryDto): Promise<PagePlanned> {
  if (renderer !== s.renderModule) throw refusal('WRONG_RENDERER', String(s.id), s.renderModule, renderer.slice(0, 64));
  const { first, last } = pageRange(q.first, q.last);
  const startD = parseTime(q.start, 'start');
  const endD = parseTime(q.end, 'end');
  requireSucceeded(s);
  // Taken before the entries are read: a search finishing meanwhile is not taken for complete.
  const finished = s.flags.finished;
  const base = {
    SearchID: s.id,
    EntryCount: entryCount(s),
    EntryCountValid: true,
    Finished: finished,
    OverLimit: s.store.overLimit,
    LimitDroppedRange: limitDroppedRange(s),
    SearchInfo: toSearchInfo(s),
  };
  if (!pagesEntries(s)) return { base };
  const range = { first, startTS: (startD ?? s.start).toISOString(), endTS: (endD ?? s.end).toISOString(), finished };
  if (startD || endD) {
    const startUs = (startD ?? s.start).getTime() * 1000;
    const endUs = (endD ?? s.end).getTime() * 1000;
    const plan = await s.store.planByTime(startUs, endUs, first, last, pageMaxBytes);
    return { base, entries: { ...range, plan, total: plan.total } };
  }
  const total = s.store.count;
  return { base, entries: { ...range, plan: await s.store.planRange(first, last, pageMaxBytes), total } };
}

/** The fields after a page's entries: more remain when the page ends before the matches do (it may be cut by bytes) or the search runs on. */
function pageTail(p: NonNullable<PagePlanned['entries']>, tags: Record<string, number>): Record<string, unknown> {
  const last = p.first + p.plan.entries;
  return {
    Tags: tags,
    AdditionalEntries: p.total > last || !p.finished,
    EntryRange: { First: p.first, Last: last, StartTS: p.startTS, EndTS: p.endTS },
  };
}

/**
 * A renderer page as an object (the websocket's render requests): at most MAX_PAGE entries and
 * RENDER_PAGE_MAX_BYTES of them (at least one), parsed a slice at a time.
 */
export async function rendererPage(s: LiveSearch, renderer: string, q: RendererQueryDto, tagNames: TagNames = async () => new Map()): Promise<Record<string, unknown>> {
  const p = await planPage(s, renderer, q);
  if (!p.entries) {
    const result = (await s.store.result()) ?? emptyResult(resultKindOf(s.renderModule));
    return { ...p.base, Entries: result.Entries, AdditionalEntries: false };
  }
  const entries = await s.store.readPage(p.entries.plan);
  return { ...p.base, Entries: entries, ...pageTail(p.entries, tagsOf(entries, entries.length ? await tagNames().catch(() => new Map<number, string>()) : new Map())) };
}

/**
 * A renderer page as a stream of JSON bytes (REST), the same fields as `rendererPage`: the
 * entries' stored JSON lines are copied from the disk as they are (never parsed), and a
 * condensed result's `Entries` are copied from its file. Errors come before the first byte.
 */
export async function rendererStream(caller: number, s: LiveSearch, renderer: string, q: RendererQueryDto, tagNames: TagNames): Promise<Readable> {
  // One caller's pages stream one after another (RENDER_PAGES_PER_USER): the slot is theirs until the response ends.
  const release = await pageGate.acquire(caller);
  try {
    const stream = await pageStream(s, renderer, q, tagNames);
    stream.once('close', release);
    return stream;
  } catch (err) {
    release();
    throw err;
  }
}

async function pageStream(s: LiveSearch, renderer: string, q: RendererQueryDto, tagNames: TagNames): Promise<Readable> {
  const p = await planPage(s, renderer, q);
  const head = JSON.stringify(p.base).slice(0, -1);
  if (!p.entries) {
    const body = await s.store.resultEntries();
    if (!body) return Readable.from([JSON.stringify({ ...p.base, Entries: emptyResult(resultKindOf(s.renderModule)).Entries, AdditionalEntries: false })]);
    return Readable.from(
      (async function* () {
        yield `${head},"Entries":`;
        yield* body;
        yield ',"AdditionalEntries":false}';
      })(),
    );
  }
  const entries = p.entries;
  const store = s.store;
  return Readable.from(
    (async function* () {
      yield `${head},"Entries":`;
      const tags = new TagCollector();
      yield* jsonArrayOfLines(store.pageBytes(entries.plan), tags);
      const names = tags.tags.size ? await tagNames().catch(() => new Map<number, string>()) : new Map<number, string>();
      const byName: Record<string, number> = {};
      for (const t of tags.tags) byName[names.get(t) ?? String(t)] = t;
      yield `,${JSON.stringify(pageTail(entries, byName)).slice(1)}`;
    })(),
  );
}

/** JSON lines (each ending with a newline) as one JSON array: every newline becomes a comma, the last one is dropped. */
async function* jsonArrayOfLines(chunks: AsyncIterable<Buffer>, tags: TagCollector): AsyncGenerator<Buffer | string> {
  yield '[';
  let held: Buffer | undefined;
  for await (const chunk of chunks) {
    tags.feed(chunk);
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, nl + 1)) chunk[nl] = 44;
    if (held) yield held;
    held = chunk;
  }
  if (held) yield held.subarray(0, held.length - 1);
  yield ']';
}

/** Bytes of a stored line read for its tag: `{"TS":..,"SRC":..,"Tag":n,"Data":..` (SRC is at most 64 characters, escaped). */
const TAG_PREFIX_BYTES = 512;
const DATA_KEY = Buffer.from(',"Data":');

/** The tags of stored entry lines streaming past, read from the first bytes of each line. */
export class TagCollector {
  readonly tags = new Set<number>();
  private parts: Buffer[] = [];
  private length = 0;
  private reading = true;

  feed(chunk: Buffer): void {
    for (let pos = 0; pos < chunk.length;) {
      const nl = chunk.indexOf(10, pos);
      const end = nl < 0 ? chunk.length : nl;
      if (this.reading) {
        const upTo = Math.min(end, pos + TAG_PREFIX_BYTES - this.length);
        this.parts.push(chunk.subarray(pos, upTo));
        this.length += upTo - pos;
        if (nl >= 0 || this.length >= TAG_PREFIX_BYTES) this.take();
      }
      if (nl < 0) return;
      pos = nl + 1;
      this.reading = true;
    }
  }

  private take(): void {
    const prefix = Buffer.concat(this.parts);
    this.parts = [];
    this.length = 0;
    this.reading = false;
    const at = prefix.indexOf(DATA_KEY);
    if (at < 0) return;
    try {
      const tag = (JSON.parse(`${prefix.toString('utf8', 0, at)}}`) as { Tag?: unknown }).Tag;
      if (typeof tag === 'number' && Number.isSafeInteger(tag)) this.tags.add(tag);
    } catch {
      // not a stored entry's line: no tag
    }
  }
}

/** EV columns of an entries CSV (EntryDownload): what the search's modules produce. */
function csvColumns(s: LiveSearch): string[] {
  if (s.csvColumns) return s.csvColumns;
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
  if (!s.store.condensed && !s.flags.finished) throw refusal('SEARCH_STILL_RUNNING');
  switch (format) {
    case 'json':
    case 'csv':
      return Readable.from(condensedDownload(s, format));
    case 'text':
      throw refusal('FORMAT_NOT_AVAILABLE', 'text', s.renderModule);
    default:
      return assertUnreachable(format);
  }
}
