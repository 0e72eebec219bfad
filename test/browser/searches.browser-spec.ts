import { Locator, Page } from 'playwright-core';
import { formatDuration } from '../../web/src/ui/time-format';
import { ConsoleHarness, eventually, keepScreenshot, runQuery, signIn, tableRows, Watched, withPage } from './harness';

const MIN = 60_000;
/**
 * Counted nested repetition: 2-4 s per slow entry in V8 (each `a` more doubles it); the short
 * all-`a` entries match at once. Slow enough that a search is still running when the person
 * sends it to the background (with 23 `a`s a CI run finished first, in 1.25 s).
 */
const REGEX = '(?P<x>(a{1,30}){1,30}$)';
const SLOW_QUERY = `tag=slow regex "${REGEX}" | table x`;
/** About a second or two in all: long enough to tell the search's own time from the moment it takes to open it again. */
const MEDIUM_QUERY = `tag=medium regex "${REGEX}" | table x`;
/** Quick, and the same every time it runs. */
const QUICK_QUERY = 'tag=slow grep -v "!" | table';
/** Tens of seconds per entry: runs until stopped. */
const SLOWER_QUERY = `tag=slower regex "${REGEX}" | count`;

interface Summary {
  ID: string;
  UserQuery: string;
  State: string;
}

interface Info {
  Started: string;
  Finished: string;
}

/** Persistent searches as a person uses them: background, sign out and back in, find, open, save, stop, delete. */
describe('console persistent searches (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let headers: Record<string, string>;

  beforeAll(async () => {
    await h.start({ SEARCH_TIMEOUT_MS: '120000' });
    headers = (await h.createUser('analyst', 'analyst-password-1')).headers;
    const quick = ['a', 'aa', 'aaa', 'aaaa'];
    await h.ingest(headers, 'slow', [
      ...quick.map((data, i) => ({ data, ageMs: MIN + i * 1000 })),
      ...Array.from({ length: 6 }, (_, i) => ({ data: `${'a'.repeat(25)}!`, ageMs: 2 * MIN + i * 1000 })),
    ]);
    await h.ingest(headers, 'medium', [
      ...['a', 'aa'].map((data, i) => ({ data, ageMs: MIN + i * 1000 })),
      ...Array.from({ length: 4 }, (_, i) => ({ data: `${'a'.repeat(24)}!`, ageMs: 2 * MIN + i * 1000 })),
    ]);
    await h.ingest(
      headers,
      'slower',
      Array.from({ length: 10 }, (_, i) => ({ data: `${'a'.repeat(28)}!`, ageMs: MIN + i * 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the persistent searches page:\n${shots.join('\n')}\n`);
  });

  const searches = async (): Promise<Summary[]> => (await h.svc.request('GET', '/api/searchctrl', { headers })).body as Summary[];

  async function cleanUp(): Promise<void> {
    for (const s of await searches()) await h.svc.request('DELETE', `/api/searchctrl/${s.ID}`, { headers });
  }

  /** Launches through the API (as another tab would); `keep`: detach at once, the search stays backgrounded. */
  async function launch(query: string, background: boolean): Promise<string> {
    const res = await h.svc.request('POST', '/api/searchctrl/launch', { headers, json: { SearchString: query, Background: background } });
    expect(res.status).toBe(200);
    const r = res.body as { SearchID: string; SearchSessionID: string };
    if (background) await h.svc.request('PUT', `/api/searchctrl/${r.SearchID}/detach?sid=${r.SearchSessionID}`, { headers });
    return r.SearchID;
  }

  async function openSearches(w: Watched): Promise<void> {
    await w.page.goto('/searches');
    await signIn(w.page, 'analyst', 'analyst-password-1');
    await w.page.getByRole('heading', { name: 'Persistent searches' }).waitFor();
  }

  const row = (page: Page, id: string): Locator =>
    page
      .getByRole('table', { name: 'Persistent searches' })
      .getByRole('row')
      .filter({ hasText: `ID ${id}` });
  const cells = async (r: Locator): Promise<string[]> => (await r.getByRole('cell').allInnerTexts()).map((c) => c.trim());

  it('finds a search sent to the background after signing out and in again, and opens it to read its results', () =>
    withPage(h, 'background-sign-out-open', async (w) => {
      const { page } = w;
      await cleanUp();
      await page.goto('/search');
      await signIn(page, 'analyst', 'analyst-password-1');
      await runQuery(page, SLOW_QUERY);
      const status = page.locator('.status-row').getByRole('status').first();
      await eventually(async () => expect(await status.innerText()).toMatch(/^Searching… /));
      await page.getByRole('button', { name: 'Send to background' }).click();
      await page.getByText('The search goes on in the background.').waitFor();
      const [mine] = await searches();
      expect(mine).toEqual(expect.objectContaining({ UserQuery: SLOW_QUERY, State: expect.stringMatching(/BACKGROUNDED/) }));

      await page.getByText('analyst tester').click();
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL('**/login');
      await signIn(page, 'analyst', 'analyst-password-1');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Persistent searches' }).click();
      await page.getByRole('heading', { name: 'Persistent searches' }).waitFor();

      const r = row(page, mine.ID);
      await eventually(async () => {
        const [query, state, owner] = await cells(r);
        expect(query.split('\n')[0]).toBe(SLOW_QUERY);
        expect(state).toMatch(/^ACTIVE\/BACKGROUNDED|DORMANT/);
        expect(owner).toBe('analyst');
      });
      // The page refreshes itself: the search finishes with its 4 results.
      await eventually(async () => {
        const [, state, , results, size, started] = await cells(r);
        expect(state).toMatch(/finished, kept in the background|finished, kept until deleted/);
        expect(results).toBe('4');
        expect(size).toMatch(/^\d+(\.\d)? (B|KiB)$/);
        expect(started).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      }, 60000);
      shots.push(await keepScreenshot(page, 'persistent-searches'));

      await r.getByRole('link', { name: `Open search ${mine.ID}` }).click();
      await page.waitForURL(`**/search?id=${mine.ID}`);
      await eventually(async () => expect(await page.getByRole('textbox', { name: 'Query' }).innerText()).toBe(SLOW_QUERY));
      await eventually(async () => expect((await tableRows(page, 'Results')).map((x) => x[0]).sort()).toEqual(['a', 'aa', 'aaa', 'aaaa']));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('shows a search opened again with the time the search itself took, not the time it took to open it', () =>
    withPage(h, 'reopened-duration', async (w) => {
      const { page } = w;
      await cleanUp();
      const id = await launch(MEDIUM_QUERY, true);
      const info = await eventually(async () => {
        const [i] = (await h.svc.request('GET', `/api/searchctrl/${id}`, { headers })).body as Info[];
        expect(i.Finished).not.toMatch(/^0001-/);
        return i;
      }, 60000);
      const took = Date.parse(info.Finished) - Date.parse(info.Started);
      expect(took).toBeGreaterThan(1000); // far from the few ms it takes to open it again
      await openSearches(w);
      await row(page, id)
        .getByRole('link', { name: `Open search ${id}` })
        .click();
      await page.waitForURL(`**/search?id=${id}`);
      const status = page.getByRole('status').filter({ hasText: / results? in / });
      await eventually(async () => expect((await status.innerText()).split(',')[0]).toBe(`2 results in ${formatDuration(took)}`), 30000);
      shots.push(await keepScreenshot(page, 'search-reopened'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('asks for a name when saving results on the search page, so saved runs of one query can be told apart', () =>
    withPage(h, 'save-with-name', async (w) => {
      const { page } = w;
      await cleanUp();
      await page.goto('/search');
      await signIn(page, 'analyst', 'analyst-password-1');
      const names = ['Before the fix', 'After the fix', 'After the restart'];
      for (const [i, name] of names.entries()) {
        await runQuery(page, QUICK_QUERY);
        await page
          .getByRole('status')
          .filter({ hasText: /^4 results in / })
          .waitFor({ timeout: 30000 });
        await page.getByRole('toolbar', { name: 'Search actions' }).getByRole('button', { name: 'Save results' }).click();
        const dialog = page.getByRole('dialog', { name: 'Save search results' });
        await dialog.getByLabel('Name (optional)').fill(name);
        if (i === 0) {
          await dialog.getByLabel('Notes (optional)').fill('the numbers before the deploy');
          shots.push(await keepScreenshot(page, 'search-save-dialog'));
        }
        await dialog.getByRole('button', { name: 'Save results' }).click();
        await dialog.waitFor({ state: 'detached' });
        await page.getByRole('toolbar', { name: 'Search actions' }).getByText(`The results are saved as “${name}”.`).waitFor();
      }
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Persistent searches' }).click();
      const table = page.getByRole('table', { name: 'Persistent searches' });
      await eventually(async () => {
        const lines = (await table.getByRole('row').all()).slice(1).map(async (r) => (await cells(r))[0].split('\n').slice(0, 2));
        expect((await Promise.all(lines)).sort()).toEqual(names.map((n) => [n, QUICK_QUERY]).sort());
      });
      await table.getByText('the numbers before the deploy').waitFor();
      shots.push(await keepScreenshot(page, 'persistent-searches-named'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it("saves a search with a name and notes, and shows the service's refusal when the search was deleted elsewhere", () =>
    withPage(h, 'save-and-refused-delete', async (w) => {
      const { page } = w;
      await cleanUp();
      const id = await launch(SLOW_QUERY, true);
      await openSearches(w);
      const r = row(page, id);
      await r.getByRole('button', { name: `Save search ${id}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Save search results' });
      await dialog.getByLabel('Name (optional)').fill('Short runs of a');
      await dialog.getByLabel('Notes (optional)').fill('<b>kept</b> for the report');
      await dialog.getByRole('button', { name: 'Save results' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByRole('status').filter({ hasText: 'marked to be saved' }).innerText()).toBe(`Search ${id} marked to be saved.`);
      await eventually(async () => {
        const [query, state] = await cells(r);
        expect(query.split('\n').slice(0, 3)).toEqual(['Short runs of a', SLOW_QUERY, '<b>kept</b> for the report']);
        expect(state.split('\n')[0]).toBe('DORMANT/SAVED');
      }, 60000);
      expect(await r.getByRole('button', { name: 'Save Short runs of a' }).count()).toBe(0);
      expect(await r.locator('b').count()).toBe(0);

      // Someone deletes it in another tab while this page still lists it: the service's words are shown.
      await r.getByRole('button', { name: 'Delete Short runs of a' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete search' });
      expect((await h.svc.request('DELETE', `/api/searchctrl/${id}`, { headers })).status).toBe(200);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await eventually(async () => expect(await confirm.getByRole('alert').innerText()).toBe(`Could not delete search ${id}: Search not found`));
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await page.getByText('No search is kept.', { exact: false }).waitFor();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('backgrounds, stops and deletes a running search from the page', () =>
    withPage(h, 'background-stop-delete', async (w) => {
      const { page } = w;
      await cleanUp();
      const id = await launch(SLOWER_QUERY, false); // attached (as in another tab), not backgrounded
      await openSearches(w);
      const r = row(page, id);
      await eventually(async () => expect((await cells(r))[1]).toMatch(/^ACTIVE\nrunning, open in 1 page$/));
      await r.getByRole('button', { name: `Background search ${id}` }).click();
      await eventually(async () => expect((await cells(r))[1]).toMatch(/^ACTIVE\/BACKGROUNDED\nrunning, kept in the background/));
      expect(await r.getByRole('button', { name: `Background search ${id}` }).count()).toBe(0);

      await r.getByRole('button', { name: `Stop search ${id}` }).click();
      expect(await page.getByRole('status').filter({ hasText: 'stopped' }).innerText()).toBe(`Search ${id} stopped.`);
      await eventually(async () => expect((await cells(r))[1]).toMatch(/finished/), 30000);
      expect(await r.getByRole('button', { name: `Stop search ${id}` }).count()).toBe(0);

      await r.getByRole('button', { name: `Delete search ${id}` }).click();
      await page.getByRole('dialog', { name: 'Delete search' }).getByRole('button', { name: 'Delete' }).click();
      await eventually(async () => expect(await r.count()).toBe(0));
      expect(await searches()).toEqual([]);
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
