import { ConsoleHarness, keepScreenshot, PHONE, runQuery, signIn, tableRows, Watched, withPage } from './harness';

const PASS = 'tables-password-1';
const STATUSES = ['200', '200', '200', '404', '500'];

/** Tables of more rows than one page (page size 100) on the search page. */
describe('console result tables of several pages (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];

  beforeAll(async () => {
    await h.start();
    const { headers } = await h.createUser('analyst', PASS);
    // 600 web entries over the last 50 minutes: 120 of them answered 404.
    await h.ingest(
      headers,
      'web',
      Array.from({ length: 600 }, (_, i) => ({ data: `method=GET path=/p${i % 7} status=${STATUSES[i % 5]} bytes=${100 + i}`, ageMs: i * 5000 + 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of result tables:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched): Promise<void> {
    await w.page.goto('/search');
    await signIn(w.page, 'analyst', PASS);
    await w.page.getByRole('textbox', { name: 'Query' }).waitFor();
  }

  it('pages through a table of 120 rows: 100 on the first page, 20 on the second', () =>
    withPage(h, 'table-pages', async (w) => {
      const { page } = w;
      await open(w);
      await runQuery(page, 'tag=web grep "status=404" | kv path bytes | table path bytes');
      const pager = page.getByRole('navigation', { name: 'Table pages' });
      await pager.getByText('Page 1 of 2 (120 rows)').waitFor();
      const first = await tableRows(page, 'Results');
      expect(first).toHaveLength(100);
      expect(first.every(([path, bytes]) => /^\/p\d$/.test(path) && /^\d+$/.test(bytes))).toBe(true);
      shots.push(await keepScreenshot(page, 'table-pages-1'));
      await pager.getByRole('button', { name: 'Next page' }).click();
      await pager.getByText('Page 2 of 2 (120 rows)').waitFor();
      const second = await tableRows(page, 'Results');
      expect(second).toHaveLength(20);
      expect(new Set([...first, ...second].map((r) => r[1])).size).toBe(120);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('says why a table of 120 rows without columns shows nothing, instead of empty pages', () =>
    withPage(h, 'table-without-columns', async (w) => {
      const { page } = w;
      await open(w);
      // No column names: table shows every extracted value (EV) of the entries, and grep extracts none.
      await runQuery(page, 'tag=web grep "status=404" | table');
      const why = page.getByRole('status').filter({ hasText: 'no columns' });
      await why.waitFor();
      expect(await why.innerText()).toBe(
        'The table has 120 rows but no columns. Without column names, table shows the values the query extracts, and this query extracts none: name the columns (table TIMESTAMP SRC DATA), or extract values first (kv, json, regex…).',
      );
      expect(await page.getByRole('navigation', { name: 'Table pages' }).count()).toBe(0);
      expect(await page.getByRole('table', { name: 'Results' }).count()).toBe(0);
      shots.push(await keepScreenshot(page, 'table-without-columns'));

      // As it says: with named columns the same entries fill the table.
      await runQuery(page, 'tag=web grep "status=404" | table TIMESTAMP SRC DATA');
      await page.getByRole('navigation', { name: 'Table pages' }).getByText('Page 1 of 2 (120 rows)').waitFor();
      const rows = await tableRows(page, 'Results');
      expect(rows).toHaveLength(100);
      expect(rows.every((r) => r.length === 3 && r[2].includes('status=404'))).toBe(true);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('says it on a phone too, within the width of the screen', () =>
    withPage(
      h,
      'table-without-columns-phone',
      async (w) => {
        const { page } = w;
        await open(w);
        await runQuery(page, 'tag=web grep "status=404" | table');
        await page.getByRole('status').filter({ hasText: 'no columns' }).waitFor();
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
        shots.push(await keepScreenshot(page, 'phone-table-without-columns'));
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
