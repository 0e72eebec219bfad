/**
 * Entries of an entry search, fetched from the render store in pages as the list scrolls to
 * them, at most `maxPages` kept (least recently used out first). An entry is decoded (base64,
 * UTF-8, tag name) the first time it is shown, once: a page costs no decoding on arrival. While
 * the search runs, a page read before all its entries existed is read again (at most every
 * RELOAD_MS) once the count says they exist. Rendering only peeks; `ensure` (called after each
 * render) fetches.
 */
import { RendererPage, SearchEntry } from '../../api/types';
import { EntryRow, tagNamesOf, toRow } from './decode';

const RELOAD_MS = 250;

type FetchPage = (first: number, last: number) => Promise<RendererPage<SearchEntry[]>>;

interface Page {
  entries: SearchEntry[];
  /** decoded as shown */
  rows: Array<EntryRow | undefined>;
  /** the search had finished when the page was read, or the page is full: it is complete */
  final: boolean;
}

export class EntryPages {
  private readonly pages = new Map<number, Page>();
  private readonly loading = new Set<number>();
  /** when each page was last asked for */
  private readonly askedAt = new Map<number, number>();
  private readonly retrying = new Set<number>();
  private readonly tagNames = new Map<number, string>();
  private closed = false;
  error?: string;

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly onChange: () => void,
    readonly pageSize = 500,
    private readonly maxPages = 60,
  ) {}

  /** The row at `index`, or undefined while its page is not loaded. */
  peek(index: number): EntryRow | undefined {
    const n = Math.floor(index / this.pageSize);
    const page = this.pages.get(n);
    if (!page) return undefined;
    this.pages.delete(n); // most recently used last
    this.pages.set(n, page);
    const i = index - n * this.pageSize;
    if (i < 0 || i >= page.entries.length) return undefined;
    return (page.rows[i] ??= toRow(page.entries[i], this.tagNames));
  }

  /** Loads the pages holding rows [from, to) that are missing, or short of what `count` says exists. */
  ensure(from: number, to: number, count: number): void {
    if (this.closed || count <= 0) return;
    const last = Math.min(to, count) - 1;
    for (let n = Math.floor(Math.max(0, from) / this.pageSize); n * this.pageSize <= last; n++) {
      const page = this.pages.get(n);
      const expected = Math.min(this.pageSize, count - n * this.pageSize);
      if (!page || (!page.final && page.entries.length < expected)) this.load(n);
    }
  }

  /** Effects may be cleaned up and set up again (React does so): closing is undone by opening. */
  open(): void {
    this.closed = false;
  }

  close(): void {
    this.closed = true;
  }

  private load(n: number): void {
    if (this.loading.has(n) || this.closed) return;
    const now = performance.now();
    const last = this.askedAt.get(n);
    if (last !== undefined && now - last < RELOAD_MS) {
      if (!this.retrying.has(n)) {
        this.retrying.add(n);
        setTimeout(
          () => {
            this.retrying.delete(n);
            if (!this.closed) this.onChange();
          },
          RELOAD_MS - (now - last),
        );
      }
      return;
    }
    this.askedAt.set(n, now);
    this.loading.add(n);
    const first = n * this.pageSize;
    this.fetchPage(first, first + this.pageSize)
      .then((page) => {
        if (this.closed) return;
        tagNamesOf(page.Tags, this.tagNames);
        const entries = page.Entries ?? [];
        const old = this.pages.get(n);
        // A page read earlier may hold more rows than one that was in flight: keep the longer.
        if (!old || entries.length >= old.entries.length) this.pages.set(n, { entries, rows: [], final: page.Finished || entries.length === this.pageSize });
        while (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value as number);
        this.error = undefined;
      })
      .catch((err: Error) => {
        this.error = err.message;
      })
      .finally(() => {
        this.loading.delete(n);
        if (!this.closed) this.onChange();
      });
  }
}
