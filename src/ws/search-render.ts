/**
 * Render subprotocol of the websocket search (product-notes §2.5): requests `{ID, EntryRange}` on
 * `search<N>` / `attach<N>`, answered from the render store through the REST paging code.
 */
import { mapError } from '../common/http/error-filter';
import { describeQuery, tagMatcher } from '../query';
import { entryCount, LiveSearch } from '../searchctrl/search.model';
import { failedSearchError } from '../searchctrl/search-failure';
import { pagesEntries, rendererPage } from '../searchctrl/search-results';
import { RendererQueryDto } from '../searchctrl/searchctrl.dto';
import { limitDroppedRange, toSearchInfo } from '../searchctrl/searchctrl.views';

export const REQ_CLOSE = 0x1;
export const REQ_ENTRY_COUNT = 0x3;
export const REQ_SEARCH_DETAILS = 0x4;
export const REQ_SEARCH_TAGS = 0x5;
export const REQ_GET_ENTRIES = 0x10;
export const REQ_STREAMING = 0x11;
export const REQ_TS_RANGE = 0x12;
export const RESP_ERROR = 0xffffffff;

/** Entries per pushed block of REQ_STREAMING. */
export const STREAM_BLOCK = 1000;

export interface RenderRequest {
  ID: number;
  EntryRange?: { First?: number; Last?: number; StartTS?: string; EndTS?: string };
}

export interface RenderContext {
  /** The search, or undefined once it is gone (deleted, last client left). */
  search(): LiveSearch | undefined;
  tagNames(): Promise<Map<number, string>>;
  send(frame: Record<string, unknown>): void;
  /** True once the subprotocol was closed (REQ_CLOSE, socket closed): stops streaming. */
  stopped(): boolean;
  /** Resolves when `stopped()` turns true: a stream waiting for results stops at once. */
  whenStopped(): Promise<void>;
}

type Frame = Record<string, unknown>;

/** One render subprotocol of a socket (`search<N>`, `attach<N>`): its search and the session it holds. */
export class RenderSub {
  /** Render requests run one after another, behind the launch. */
  queue: Promise<void> = Promise.resolve();
  stopped = false;
  private halt!: () => void;
  /** Resolves once stopped: wakes a stream waiting for results. */
  readonly halted = new Promise<void>((r) => (this.halt = r));

  constructor(
    readonly searchId: string,
    /** The session held on the search (set once launched or attached, cleared when released). */
    public sid?: string,
  ) {}

  stop(): void {
    this.stopped = true;
    this.halt();
  }
}

const isUint = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const optString = (v: unknown, name: string): string | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 64) throw new Error(`EntryRange.${name} must be an RFC3339 string`);
  return v;
};

/** Validates the shape of a render request; answers an error message for a bad one. */
export function parseRenderRequest(data: unknown): RenderRequest | string {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return 'data must be an object';
  const d = data as Record<string, unknown>;
  if (!isUint(d.ID) || d.ID > RESP_ERROR) return 'ID must be an unsigned 32-bit integer';
  const r = d.EntryRange;
  if (r === undefined || r === null) return { ID: d.ID };
  if (typeof r !== 'object' || Array.isArray(r)) return 'EntryRange must be an object';
  const e = r as Record<string, unknown>;
  for (const k of ['First', 'Last'] as const) if (e[k] !== undefined && !isUint(e[k])) return `EntryRange.${k} must be a non-negative integer`;
  try {
    return {
      ID: d.ID,
      EntryRange: { First: e.First as number | undefined, Last: e.Last as number | undefined, StartTS: optString(e.StartTS, 'StartTS'), EndTS: optString(e.EndTS, 'EndTS') },
    };
  } catch (err) {
    return (err as Error).message;
  }
}

/** What every response on a search carries; a failed search's responses all carry the failure in `Error`. */
function base(s: LiveSearch, id: number): Frame {
  const frame: Frame = {
    ID: id,
    EntryCount: entryCount(s),
    EntryCountValid: true,
    Finished: s.flags.finished,
    OverLimit: s.store.overLimit,
    LimitDroppedRange: limitDroppedRange(s),
  };
  if (s.failure) frame.Error = failedSearchError(s.failure).message;
  return frame;
}

async function page(ctx: RenderContext, s: LiveSearch, req: RenderRequest, byTime: boolean): Promise<Frame> {
  const r = req.EntryRange ?? {};
  const q: RendererQueryDto = { first: r.First, last: r.Last };
  if (byTime) {
    q.start = r.StartTS;
    q.end = r.EndTS;
  }
  const { SearchID: _id, ...body } = await rendererPage(s, s.renderModule, q, () => ctx.tagNames());
  return { ...body, ID: req.ID };
}

/** `{name: number}` of the tags the search's query selects (all tags without a tag= constraint). */
async function searchTags(ctx: RenderContext, s: LiveSearch): Promise<Record<string, number>> {
  const patterns = describeQuery(s.userQuery).Tags;
  const match = patterns.length ? tagMatcher(patterns) : () => true;
  const out: Record<string, number> = {};
  for (const [num, name] of await ctx.tagNames()) if (match(name)) out[name] = num;
  return out;
}

/** REQ_STREAMING: blocks of up to STREAM_BLOCK entries until a final block with none and Finished. */
async function stream(ctx: RenderContext, id: number): Promise<void> {
  let pos = 0;
  while (!ctx.stopped()) {
    const s = ctx.search();
    if (!s) return ctx.send({ ID: id, Error: 'The search is gone' });
    // Taken before reading the search, so a change while this block is read is not missed.
    const changed = s.store.changed();
    const finished = s.flags.finished;
    const out = await page(ctx, s, { ID: id, EntryRange: { First: pos, Last: pos + STREAM_BLOCK } }, false);
    const entries = out.Entries;
    const condensed = !pagesEntries(s); // gauge, stackgraph... results are arrays too
    const n = !condensed && Array.isArray(entries) ? entries.length : 0;
    if (condensed && finished) {
      // A condensing renderer has one result: send it, then the final empty block.
      ctx.send({ ...out, AdditionalEntries: true });
      return ctx.send({ ...base(s, id), SearchInfo: toSearchInfo(s), Entries: [], AdditionalEntries: false, Finished: true });
    }
    if (n > 0) {
      pos += n;
      ctx.send({ ...out, AdditionalEntries: true });
      continue;
    }
    if (finished && pos >= entryCount(s)) {
      return ctx.send({ ...out, Entries: [], AdditionalEntries: false, Finished: true });
    }
    await Promise.race([changed, ctx.whenStopped()]);
  }
}

/** Answers one render request; REQ_CLOSE is the caller's (it ends the subprotocol). */
export async function handleRender(ctx: RenderContext, req: RenderRequest): Promise<void> {
  const s = ctx.search();
  if (!s) return ctx.send({ ID: req.ID, Error: 'The search is gone' });
  try {
    switch (req.ID) {
      case REQ_ENTRY_COUNT:
        return ctx.send(base(s, req.ID));
      case REQ_SEARCH_DETAILS:
        return ctx.send({ ...base(s, req.ID), SearchInfo: toSearchInfo(s) });
      case REQ_SEARCH_TAGS:
        return ctx.send({ ...base(s, req.ID), Tags: await searchTags(ctx, s) });
      case REQ_GET_ENTRIES:
        return ctx.send(await page(ctx, s, req, false));
      case REQ_TS_RANGE:
        return ctx.send(await page(ctx, s, req, true));
      case REQ_STREAMING:
        return await stream(ctx, req.ID);
      default:
        return ctx.send({ ID: RESP_ERROR, Error: `Unknown request ID ${req.ID}` });
    }
  } catch (err) {
    ctx.send({ ID: req.ID, Error: mapError(err).message });
  }
}
