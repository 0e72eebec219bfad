import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, keepScreenshot, rowsOf, runQuery, signIn, Watched, withPage } from './harness';

const STATUSES = ['200', '200', '200', '404', '500'];
const QUERY = 'tag=web grep "status=404"';

/** The search library and the search history as a person uses them. */
describe('console library and history (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let headers: Record<string, string>;
  let opsGid: number;

  beforeAll(async () => {
    await h.start();
    const analyst = await h.createUser('analyst', 'analyst-password-1');
    headers = analyst.headers;
    const gids: number[] = [];
    for (const name of ['ops', 'web-team']) {
      const res = await h.svc.request('POST', '/api/groups', { headers: h.admin, json: { Name: name, Desc: `${name} people` } });
      expect(res.status).toBe(200);
      gids.push(res.body as number);
    }
    opsGid = gids[0];
    expect((await h.svc.request('POST', `/api/users/${analyst.uid}/group`, { headers: h.admin, json: { GIDs: gids } })).status).toBe(200);
    // 600 web entries over the last 50 minutes: 120 of them with status 404.
    await h.ingest(
      headers,
      'web',
      Array.from({ length: 600 }, (_, i) => ({ data: `method=GET path=/p${i % 7} status=${STATUSES[i % 5]} bytes=${100 + i}`, ageMs: i * 5000 + 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the library and history pages:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, path = '/search'): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, 'analyst', 'analyst-password-1');
    await w.page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  const editorText = (page: Page) => page.getByRole('textbox', { name: 'Query' }).innerText();
  const status = (page: Page) => page.locator('.status-row').getByRole('status').first();

  it('saves the query just run to the library with a description, labels and a group, finds it, opens it into the search page, edits and deletes it', () =>
    withPage(h, 'library-save-reopen', async (w) => {
      const { page } = w;
      await open(w);
      await runQuery(page, QUERY);
      await eventually(async () => expect(await status(page).innerText()).toMatch(/^120 results in /), 30000);

      await page.getByRole('button', { name: 'Save to library' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save to library' });
      expect(await dialog.getByLabel('Query').inputValue()).toBe(QUERY);
      await dialog.getByLabel('Name').fill('Not found pages');
      await dialog.getByLabel('Description').fill('Requests answered 404, newest first');
      await dialog.getByLabel('Labels').fill('web, errors, web');
      await dialog.getByRole('checkbox', { name: 'ops' }).waitFor();
      expect(await dialog.getByRole('group', { name: 'Share with groups' }).getByRole('checkbox').count()).toBe(2); // ops, web-team; no "global": not an administrator
      await dialog.getByRole('checkbox', { name: 'ops' }).check();
      shots.push(await keepScreenshot(page, 'library-save-dialog'));
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () =>
        expect(await page.getByRole('toolbar', { name: 'Search actions' }).getByRole('status').filter({ hasText: 'Saved' }).innerText()).toBe(
          'Saved “Not found pages” to the library.',
        ),
      );

      // What the service stored.
      const stored = await h.svc.request('GET', '/api/library', { headers });
      expect(stored.body).toEqual([
        expect.objectContaining({
          Name: 'Not found pages',
          Description: 'Requests answered 404, newest first',
          Query: QUERY,
          Labels: ['web', 'errors'],
          GIDs: [opsGid],
          Global: false,
        }),
      ]);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library', exact: true }).click();
      await page.getByRole('heading', { name: 'Query library' }).waitFor();
      await eventually(async () =>
        expect((await rowsOf(page, 'Library entries')).map((r) => r.slice(0, 4))).toEqual([['Not found pages\nRequests answered 404, newest first', QUERY, 'web\nerrors', 'ops']]),
      );
      shots.push(await keepScreenshot(page, 'library'));

      // Search by name, label and query words; pick a label.
      const filter = page.getByRole('searchbox', { name: 'Search the library' });
      for (const [text, n] of [
        ['errors', 1],
        ['not FOUND', 1],
        ['status=404', 1],
        ['nothing-like-this', 0],
      ] as const) {
        await filter.fill(text);
        await eventually(async () => expect(await page.getByRole('table', { name: 'Library entries' }).getByRole('rowheader').count()).toBe(n));
      }
      expect(await page.getByText('No entry matches the filter.').isVisible()).toBe(true);
      await filter.fill('');
      await page.getByRole('combobox', { name: 'Label' }).selectOption('errors');
      expect(await page.getByRole('table', { name: 'Library entries' }).getByRole('rowheader').count()).toBe(1);
      await page.getByRole('combobox', { name: 'Label' }).selectOption('');

      // Open it into the search page: the query is filled in, and nothing runs until asked.
      await page.getByRole('link', { name: 'Open Not found pages in the search page' }).click();
      await page.waitForURL('**/search?**');
      expect(new URL(page.url()).searchParams.get('q')).toBe(QUERY);
      await eventually(async () => expect(await editorText(page)).toBe(QUERY));
      expect(await page.locator('.status-row').count()).toBe(0);
      // "Run" opens and runs it.
      await page.goBack();
      await page.getByRole('link', { name: 'Run Not found pages' }).click();
      await eventually(async () => expect(await status(page).innerText()).toMatch(/^120 results in /), 30000);
      await page.goBack();

      // Edit: rename, relabel, share with the other group instead.
      await page.getByRole('button', { name: 'Edit Not found pages' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit “Not found pages”' });
      expect(await edit.getByLabel('Labels').inputValue()).toBe('web, errors');
      expect(await edit.getByRole('checkbox', { name: 'ops' }).isChecked()).toBe(true);
      await edit.getByLabel('Name').fill('404 pages');
      await edit.getByLabel('Labels').fill('http');
      await edit.getByRole('checkbox', { name: 'ops' }).uncheck();
      await edit.getByRole('checkbox', { name: 'web-team' }).check();
      await edit.getByRole('button', { name: 'Save' }).click();
      await eventually(async () => expect((await rowsOf(page, 'Library entries')).map((r) => [r[0].split('\n')[0], r[2], r[3]])).toEqual([['404 pages', 'http', 'web-team']]));
      expect(await page.getByRole('status').filter({ hasText: 'Updated' }).innerText()).toBe('Updated “404 pages”.');

      // Delete, after confirming.
      await page.getByRole('button', { name: 'Delete 404 pages' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete library entry' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      expect(await page.getByRole('table', { name: 'Library entries' }).getByRole('rowheader').count()).toBe(1);
      await page.getByRole('button', { name: 'Delete 404 pages' }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('The library is empty.', { exact: false }).waitFor();
      expect((await h.svc.request('GET', '/api/library', { headers })).body).toEqual([]);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('adds an entry by hand, says why the service refuses one, and shows hostile names as text', () =>
    withPage(h, 'library-new-hostile', async (w) => {
      const { page } = w;
      for (const e of (await h.svc.request('GET', '/api/library', { headers })).body as Array<{ ThingUUID: string }>)
        await h.svc.request('DELETE', `/api/library/${e.ThingUUID}`, { headers });
      const evil = {
        Name: '<img src=x onerror="window.__xss=1">',
        Description: '<script>window.__xss=2</script>',
        Query: 'tag=web grep "<b>bold</b>"',
        Labels: ['<svg onload=window.__xss=3>'],
      };
      expect((await h.svc.request('POST', '/api/library', { headers, json: evil })).status).toBe(200);
      await open(w, '/library');
      await eventually(async () =>
        expect((await rowsOf(page, 'Library entries')).map((r) => r.slice(0, 4))).toEqual([[`${evil.Name}\n${evil.Description}`, evil.Query, evil.Labels[0], 'only the owner']]),
      );
      expect(await page.getByRole('table', { name: 'Library entries' }).locator('img, script, svg, b').count()).toBe(0);

      await page.getByRole('button', { name: 'New entry' }).click();
      const dialog = page.getByRole('dialog', { name: 'New library entry' });
      await dialog.getByLabel('Query').fill('tag=web count');
      // A name of spaces only is refused by the console; a label too long, by the service, in its words.
      await dialog.getByLabel('Name').fill('   ');
      await dialog.getByRole('button', { name: 'Save' }).click();
      expect(await dialog.getByRole('alert').innerText()).toBe('Give the entry a name.');
      await dialog.getByLabel('Name').fill('Count of web');
      await dialog.getByLabel('Labels').fill('l'.repeat(300));
      await dialog.getByRole('button', { name: 'Save' }).click();
      await eventually(async () => expect(await dialog.getByRole('alert').innerText()).toMatch(/Labels.*256/));
      await dialog.getByLabel('Labels').fill('');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => expect((await rowsOf(page, 'Library entries')).map((r) => r[0].split('\n')[0])).toEqual([evil.Name, 'Count of web']));
      // Escape closes a dialog without saving.
      await page.getByRole('button', { name: 'New entry' }).click();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.waitForTimeout(200);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('lists the searches just run in the history, newest first, refines them and opens one in the search page', () =>
    withPage(h, 'history', async (w) => {
      const { page } = w;
      await open(w);
      for (const q of ['tag=web grep "path=/p3"', 'tag=web kv status | count by status | table status count']) {
        await runQuery(page, q);
        await eventually(async () => expect(await status(page).innerText()).toMatch(/ results? in /), 30000);
      }
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History', exact: true }).click();
      await page.getByRole('heading', { name: 'Search history' }).waitFor();
      const queries = async () => (await rowsOf(page, 'Search history')).map((r) => r[1]);
      await eventually(async () => expect((await queries()).slice(0, 2)).toEqual(['tag=web kv status | count by status | table status count', 'tag=web grep "path=/p3"']));
      const first = (await rowsOf(page, 'Search history'))[0];
      expect(first[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\njust now$/);
      shots.push(await keepScreenshot(page, 'history'));

      const refine = page.getByRole('searchbox', { name: 'Refine' });
      await refine.fill('path=/p3');
      await eventually(async () => {
        const q = await queries();
        expect(q.length).toBeGreaterThanOrEqual(1);
        expect(q.every((x) => x.includes('path=/p3'))).toBe(true);
      });
      await refine.fill('no-such-query-text');
      await page.getByText('No search in your history contains this text.').waitFor();
      await refine.fill('path=/p3');
      await eventually(async () => expect((await queries())[0]).toBe('tag=web grep "path=/p3"'));

      await page.getByRole('table', { name: 'Search history' }).getByRole('row').nth(1).getByRole('link', { name: 'Open in search page' }).click();
      await page.waitForURL('**/search?**');
      await eventually(async () => expect(await editorText(page)).toBe('tag=web grep "path=/p3"'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
