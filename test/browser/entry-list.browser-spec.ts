import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, signIn, withPage } from './harness';

const ENTRIES = 20_000;
const PAGE = 500;

/** Where the list stands after scrolling: frames that showed a placeholder on screen, of all frames. */
interface Scrolled {
  frames: number;
  placeholderFrames: number;
  /** [performance.now(), first row on screen] after each frame's scroll */
  track: Array<[number, number]>;
}

/**
 * Scrolls the entry list once a frame in the page: `fling` from the top to the bottom in `n`
 * milliseconds, or `wheel` 3 rows a frame for `n` frames. Counts frames where a row on screen
 * was still loading.
 */
function scroll(page: Page, kind: 'fling' | 'wheel', n: number): Promise<Scrolled> {
  return page.evaluate(
    async ({ kind, n }) => {
      const el = document.querySelector<HTMLElement>('.entry-scroll')!;
      const rowPx = el.querySelector('[role="row"]')!.getBoundingClientRect().height;
      const loadingOnScreen = () => {
        const box = el.getBoundingClientRect();
        return [...el.querySelectorAll('.loading-row')].some((c) => {
          const r = c.closest('[role="row"]')!.getBoundingClientRect();
          return r.bottom > box.top && r.top < box.bottom;
        });
      };
      const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
      const t0 = await frame();
      const from = el.scrollTop;
      let frames = 0;
      let placeholderFrames = 0;
      const track: Array<[number, number]> = [];
      const bottom = el.scrollHeight - el.clientHeight;
      for (let now = t0; kind === 'fling' ? now - t0 < n : frames < n; now = await frame()) {
        // What this frame shows: the rows drawn for the place the last frame scrolled to.
        if (frames > 0 && loadingOnScreen()) placeholderFrames++;
        el.scrollTop = kind === 'fling' ? ((now - t0) / n) * bottom : from + (frames + 1) * 3 * rowPx;
        track.push([performance.now(), Math.floor(el.scrollTop / rowPx)]);
        frames++;
      }
      if (kind === 'fling') el.scrollTop = bottom;
      await frame();
      if (loadingOnScreen()) placeholderFrames++;
      return { frames, placeholderFrames, track };
    },
    { kind, n },
  );
}

/** The data cell of entry `i` (0-based) once it is loaded. */
async function dataOf(page: Page, i: number): Promise<string> {
  const row = page.getByRole('table', { name: 'Entries' }).locator(`[role="row"][aria-rowindex="${i + 2}"]`);
  return eventually(() => row.locator('[role="cell"].data').innerText({ timeout: 1000 }), 20000);
}

/** The virtual list of entries as a person scrolls it: flung through, or read with the wheel. */
describe('console entry list scrolling (browser)', () => {
  const h = new ConsoleHarness();
  const asked: number[] = [];

  beforeAll(async () => {
    await h.start();
    const { headers } = await h.createUser('reader', 'reader-password-1');
    // Entry i is the i-th newest: the list shows it at row i.
    await h.ingest(
      headers,
      'many',
      Array.from({ length: ENTRIES }, (_, i) => ({ data: `entry ${i} status=${i % 2 ? 200 : 404}`, ageMs: 1000 + i * 100 })),
    );
  });
  afterAll(() => h.stop());

  async function openList(page: Page): Promise<void> {
    asked.length = 0;
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (/^\/api\/searchctrl\/\d+\/renderer\//.test(u.pathname) && u.searchParams.has('first')) asked.push(Number(u.searchParams.get('first')));
    });
    await page.goto('/search?q=tag%3Dmany&t=1h&run=1');
    await signIn(page, 'reader', 'reader-password-1');
    await eventually(async () => expect(await page.locator('.status-row').getByRole('status').first().innerText()).toMatch(/^20,000 results in /), 60000);
    expect(await dataOf(page, 0)).toBe('entry 0 status=404');
  }

  it('flings past 20,000 entries without fetching the pages flown past, then shows where it stopped', () =>
    withPage(h, 'entry-list-fling', async (w) => {
      const { page } = w;
      await openList(page);
      asked.length = 0;
      const flung = await scroll(page, 'fling', 1000);
      // Rows flown past show as "Loading entry …" and are never fetched; the last ones load once the list rests.
      expect(flung.placeholderFrames).toBeGreaterThan(flung.frames / 2);
      expect(await dataOf(page, ENTRIES - 1)).toBe(`entry ${ENTRIES - 1} status=200`);
      expect(asked).toContain(ENTRIES - PAGE);
      // A loaded machine can stall a frame long enough to look like a rest (a page read there is
      // right); reading every page flown past (about 40 here) is the defect this guards against.
      expect(asked.filter((first) => ![PAGE, ENTRIES - 2 * PAGE, ENTRIES - PAGE].includes(first)).length).toBeLessThanOrEqual(3);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('loads the next page ahead of wheel scrolling, so no row on screen is ever loading', () =>
    withPage(h, 'entry-list-wheel', async (w) => {
      const { page } = w;
      await openList(page);
      // 250 rows above the boundary of two pages of the render store: the next page is not loaded yet.
      const start = 10_000 - 250;
      await page.locator('.entry-scroll').evaluate((el, top) => (el.scrollTop = top), start * 48);
      expect(await dataOf(page, start)).toBe(`entry ${start} status=404`);
      expect(asked).not.toContain(10_000);
      // 3 rows a frame for 130 frames: 390 rows, across the boundary.
      const wheeled = await scroll(page, 'wheel', 130);
      expect(wheeled).toEqual({ frames: 130, placeholderFrames: 0, track: expect.any(Array) });
      expect(asked).toContain(10_000);
      // The next page was asked for while the first row on screen was still 200 rows or so above it.
      const askedAt = await page.evaluate(() => performance.getEntriesByType('resource').find((e) => /[?&]first=10000(&|$)/.test(e.name))!.startTime);
      const topThen = [...wheeled.track].reverse().find(([t]) => t <= askedAt)![1];
      expect(10_000 - topThen).toBeGreaterThanOrEqual(150);
      expect(await dataOf(page, start + 390)).toBe('entry 10140 status=404');
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
