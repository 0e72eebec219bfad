import * as fs from 'node:fs';
import { ConsoleHarness, eventually, keepScreenshot, runQuery, signIn, tableRows, Watched, withPage } from './harness';

const MIN = 60_000;
const STATUSES = ['200', '200', '200', '404', '500'];
const XSS = ['<img src=x onerror="window.__xss=1">', '<script>window.__xss=2</script>', '"><svg onload="window.__xss=3">'];

/** The search page as a person uses it, against data ingested through the API. */
describe('console search page (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];

  beforeAll(async () => {
    await h.start({ SEARCH_TIMEOUT_MS: '120000' });
    const { headers } = await h.createUser('analyst', 'analyst-password-1');
    // 600 web entries over the last 50 minutes, one every 5 s: 360 of status 200, 120 of 404 and of 500.
    await h.ingest(
      headers,
      'web',
      Array.from({ length: 600 }, (_, i) => ({ data: `method=GET path=/p${i % 7} status=${STATUSES[i % 5]} bytes=${100 + i}`, ageMs: i * 5000 + 1000, src: `10.0.0.${i % 5}` })),
    );
    await h.ingest(
      headers,
      'evil',
      XSS.map((data, i) => ({ data, ageMs: MIN + i * 1000 })),
    );
    // Counted nested repetition: V8 takes seconds per entry (README, "Regular expressions").
    await h.ingest(
      headers,
      'slow',
      Array.from({ length: 40 }, (_, i) => ({ data: `${'a'.repeat(30)}!`, ageMs: MIN + i * 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the search page:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, path = '/search'): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, 'analyst', 'analyst-password-1');
    await w.page.getByRole('textbox', { name: 'Query' }).waitFor();
  }

  const status = (w: Watched) => w.page.locator('.status-row').getByRole('status').first();

  async function finished(w: Watched, results: string): Promise<void> {
    await eventually(async () => expect(await status(w).innerText()).toMatch(new RegExp(`^${results} results in `)), 30000);
  }

  it('shows text results as rows (timestamp, tag, source, data) with a histogram above them', () =>
    withPage(h, 'text-renderer', async (w) => {
      await open(w);
      await runQuery(w.page, 'tag=web grep "status=404"');
      await finished(w, '120');
      const rows = await eventually(async () => {
        const r = await tableRows(w.page, 'Entries');
        expect(r.length).toBeGreaterThan(10);
        expect(r.every((cells) => cells.length === 4)).toBe(true);
        return r;
      });
      expect(rows[0]).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/), 'web', '10.0.0.3', 'method=GET path=/p3 status=404 bytes=103']);
      expect(rows.every((r) => r[3].includes('status=404'))).toBe(true);
      await w.page.getByRole('img', { name: /^Histogram of 120 entries in \d+ intervals$/ }).waitFor();
      await w.page.waitForTimeout(700); // let the chart library load and paint before the picture
      shots.push(await keepScreenshot(w.page, 'search-text'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('shows a table with sortable columns, copies it and downloads it as CSV and JSON', () =>
    withPage(
      h,
      'table-renderer',
      async (w) => {
        const { page } = w;
        await open(w);
        await runQuery(page, 'tag=web kv status | count by status | table status count');
        await eventually(async () =>
          expect(await tableRows(page, 'Results')).toEqual([
            ['200', '360'],
            ['404', '120'],
            ['500', '120'],
          ]),
        );
        await page.getByRole('button', { name: 'count' }).click();
        await page.getByRole('button', { name: 'count' }).click();
        expect(await page.getByRole('columnheader', { name: 'count' }).getAttribute('aria-sort')).toBe('descending');
        expect((await tableRows(page, 'Results')).map((r) => r[1])).toEqual(['360', '120', '120']);
        await page.getByRole('button', { name: 'Copy' }).click();
        await eventually(async () => expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('status\tcount\n200\t360\n404\t120\n500\t120\n'));
        for (const [link, body] of [
          ['Download CSV', 'status,count\r\n200,360\r\n404,120\r\n500,120\r\n'],
          ['Download JSON', '{"Columns":["status","count"],"Rows":'],
        ]) {
          const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link }).click()]);
          const text = fs.readFileSync((await download.path())!, 'utf8');
          if (link === 'Download CSV') expect(text).toBe(body);
          else expect(text.startsWith(body)).toBe(true);
        }
        shots.push(await keepScreenshot(page, 'search-table'));
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { clipboard: true },
    ));

  it('draws a chart as line, bar, area or pie, and shows its numbers as a table', () =>
    withPage(h, 'chart-renderer', async (w) => {
      const { page } = w;
      await open(w);
      await runQuery(page, 'tag=web kv status | stats count by status over 10m | chart count by status');
      await page.getByRole('img', { name: /^Line chart of 200, 404, 500 over \d+ time points$/ }).waitFor();
      await page.getByLabel('Chart type').selectOption('bar');
      await page.getByRole('img', { name: /^Bar chart of 200, 404, 500/ }).waitFor();
      await page.getByLabel('Stacked').check();
      await page.getByRole('button', { name: 'Show data' }).click();
      const rows = await tableRows(page, 'Chart data');
      expect(rows.length).toBeGreaterThanOrEqual(5);
      const sums = [1, 2, 3].map((col) => rows.reduce((s, r) => s + Number(r[col]), 0));
      expect(sums).toEqual([360, 120, 120]);
      shots.push(await keepScreenshot(page, 'search-chart'));
      await page.getByLabel('Chart type').selectOption('pie');
      await page.getByRole('img', { name: /^Pie chart/ }).waitFor();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('shows gauges and number cards with their values in words', () =>
    withPage(h, 'gauge-renderer', async (w) => {
      const { page } = w;
      await open(w);
      await runQuery(page, 'tag=web kv bytes | stats mean(bytes) | gauge mean');
      await page.getByRole('list', { name: 'Gauges' }).getByRole('listitem', { name: 'mean: 399.5' }).waitFor();
      await page.getByRole('img', { name: 'Gauge mean: 399.5 on a scale from 0 to 500' }).waitFor();
      shots.push(await keepScreenshot(page, 'search-gauge'));
      await runQuery(page, 'tag=web count | numbercard count');
      const card = page.getByRole('list', { name: 'Number cards' }).getByRole('listitem', { name: 'count: 600' });
      await card.waitFor();
      expect((await card.innerText()).split('\n')[0]).toBe('600');
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('marks a parse error at the module that has it while the person types', () =>
    withPage(h, 'parse-error', async (w) => {
      const { page } = w;
      await open(w);
      const editor = page.getByRole('textbox', { name: 'Query' });
      await editor.click();
      await page.keyboard.insertText('tag=web grep status | regx foo | table');
      const alert = page.locator('#query-problem').getByRole('alert');
      await eventually(async () => expect(await alert.innerText()).toBe('Module 2 (regx): ModuleError: regx is not a valid module'));
      expect(await editor.locator('.cm-lintRange-error').allInnerTexts()).toEqual(['regx foo']);
      expect(await editor.getAttribute('aria-describedby')).toBe('query-problem');
      // Fixing it clears the error.
      await page.keyboard.press('End');
      for (let i = 0; i < 'regx foo | table'.length; i++) await page.keyboard.press('Backspace');
      await page.keyboard.insertText('count');
      await eventually(async () => expect(await alert.count()).toBe(0));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('completes module and renderer names with Tab, or with Enter once the person has moved through the list', () =>
    withPage(h, 'completion', async (w) => {
      const { page } = w;
      await open(w);
      const editor = page.getByRole('textbox', { name: 'Query' });
      await editor.click();
      await page.keyboard.insertText('tag=web grep status | ta');
      await page.keyboard.press('Control+Space');
      const options = page.getByRole('listbox').getByRole('option');
      await options.filter({ hasText: /^table/ }).waitFor();
      // Nothing is picked until the person moves: Tab takes the first name.
      expect(await page.getByRole('listbox').getByRole('option', { selected: true }).count()).toBe(0);
      await page.keyboard.press('Tab');
      expect(await editor.innerText()).toBe('tag=web grep status | table');
      expect(await page.getByRole('listbox').count()).toBe(0);

      // Arrow keys move through the list, and then Enter takes the option moved to.
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('Backspace');
      await page.keyboard.insertText('tag=web grep status | c');
      await page.keyboard.press('Control+Space');
      await options.first().waitFor();
      const second = await options.nth(1).innerText();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await page.getByRole('option', { selected: true }).innerText()).toBe(second);
      await page.keyboard.press('Enter');
      // The option reads "<name><module|renderer>": the name is what was put in.
      const put = (await editor.innerText()).slice('tag=web grep status | '.length);
      expect(put.length).toBeGreaterThan(1);
      expect(second).toMatch(new RegExp(`^${put}(module|renderer)$`));
      // Enter took the name and ran nothing: the page still explains how to search.
      expect(await page.getByRole('region', { name: 'How to search' }).isVisible()).toBe(true);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('runs the query on Enter even while the completion list is open', () =>
    withPage(h, 'enter-runs-with-completion-open', async (w) => {
      const { page } = w;
      await open(w);
      const editor = page.getByRole('textbox', { name: 'Query' });
      await editor.click();
      await page.keyboard.type('tag=web grep "status=404" | table'); // the closing quote typed steps over the one the editor added
      // The query ends in a renderer's name: the list offers it.
      await page
        .getByRole('listbox')
        .getByRole('option', { name: /^table/ })
        .waitFor();
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .filter({ hasText: /^120 results in / })
        .waitFor({ timeout: 30000 });
      expect(await editor.innerText()).toBe('tag=web grep "status=404" | table');
      expect(await page.getByRole('listbox').count()).toBe(0);
      shots.push(await keepScreenshot(page, 'search-enter-with-completion'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('drops the error of a failed launch as soon as the query is edited, and checks the new text', () =>
    withPage(h, 'stale-launch-error', async (w) => {
      const { page } = w;
      await open(w);
      const editor = page.getByRole('textbox', { name: 'Query' });
      await editor.click();
      await page.keyboard.insertText('tag=web grep "oops | table');
      const launched = page.waitForResponse((r) => r.url().endsWith('/api/searchctrl/launch'));
      await page.keyboard.press('Enter');
      expect((await launched).status()).toBe(400);
      const alert = page.getByRole('alert');
      await alert.first().waitFor();
      shots.push(await keepScreenshot(page, 'search-launch-error'));

      // Delete the stray quote: the query is valid now, and the service says so.
      await page.keyboard.press('Home');
      for (let i = 0; i < 'tag=web grep '.length; i++) await page.keyboard.press('ArrowRight');
      const checked = page.waitForResponse(
        (r) => r.url().endsWith('/api/parse') && (r.request().postDataJSON() as { SearchString: string }).SearchString === 'tag=web grep oops | table',
      );
      await page.keyboard.press('Delete');
      expect(await editor.innerText()).toBe('tag=web grep oops | table');
      expect(await (await checked).json()).toEqual(expect.objectContaining({ GoodQuery: true }));
      expect(await alert.count()).toBe(0);
      // Nothing was run: the page is back to explaining how to search.
      expect(await page.getByRole('region', { name: 'How to search' }).isVisible()).toBe(true);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('stops a long search and keeps what it found', () =>
    withPage(h, 'stop-search', async (w) => {
      const { page } = w;
      await open(w);
      await runQuery(page, 'tag=slow regex "(?P<x>(a{1,30}){1,30}$)" | count');
      await eventually(async () => expect(await status(w).innerText()).toMatch(/^Searching… /));
      expect(await page.getByRole('progressbar', { name: 'Search progress' }).count()).toBe(1);
      await page.getByRole('button', { name: 'Stop' }).click();
      await eventually(async () => expect(await status(w).innerText()).toMatch(/^Stopped: \d+ results? \(the search did not finish\)/), 20000);
      expect(await page.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
    }));

  it('zooms into a range dragged across the histogram with a new search', () =>
    withPage(h, 'histogram-zoom', async (w) => {
      const { page } = w;
      await open(w);
      await runQuery(page, 'tag=web grep status');
      await finished(w, '600');
      const histogram = page.getByRole('img', { name: /^Histogram of 600 entries/ });
      await histogram.waitFor();
      await page.waitForTimeout(300);
      const box = (await histogram.boundingBox())!;
      const y = box.y + box.height * 0.5;
      await page.mouse.move(box.x + box.width * 0.35, y);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, y, { steps: 8 });
      await page.mouse.move(box.x + box.width * 0.65, y, { steps: 8 });
      await page.mouse.up();
      const picker = page.getByRole('button', { name: /^Time range: / });
      await eventually(async () => expect(await picker.getAttribute('aria-label')).toMatch(/^Time range: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d to \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/));
      const url = new URL(page.url());
      const from = Date.parse(url.searchParams.get('from')!);
      const to = Date.parse(url.searchParams.get('to')!);
      expect(to - from).toBeGreaterThan(5 * MIN);
      expect(to - from).toBeLessThan(40 * MIN);
      await eventually(async () => expect(await status(w).innerText()).toMatch(/^[\d,]+ results? in /), 30000);
      const n = Number((await status(w).innerText()).split(' ')[0].replace(/,/g, ''));
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(600);
      // One entry every 5 s: the count matches the range.
      expect(Math.abs(n - (to - from) / 5000)).toBeLessThanOrEqual(2);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('shows hostile entries as text and runs none of them', () =>
    withPage(h, 'hostile-entries', async (w) => {
      const { page } = w;
      await open(w);
      await runQuery(page, 'tag=evil');
      await finished(w, '3');
      const rows = await eventually(async () => {
        const r = await tableRows(page, 'Entries');
        expect(r.map((cells) => cells.length)).toEqual([4, 4, 4]);
        return r;
      });
      expect(rows.map((r) => r[3]).sort()).toEqual([...XSS].sort());
      expect(await page.getByRole('table', { name: 'Entries' }).locator('img, script, svg').count()).toBe(0);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('opens the same search from its URL with ?id=, and says when a search is gone', () =>
    withPage(h, 'attach', async (w) => {
      const { page } = w;
      await open(w, '/search?id=123456789012');
      await eventually(async () => expect(await page.getByRole('alert').first().innerText()).toMatch(/not found|no longer exists|Search 123456789012/i));
    }));
});
