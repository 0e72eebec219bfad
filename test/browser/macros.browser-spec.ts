import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, keepScreenshot, PHONE, rowsOf, runQuery, signIn, tableRows, Watched, withPage, goTo } from './harness';
import { expectNoSidewaysScroll } from './touch';

const PASS = 'macro-password-1';
const STATUSES = ['200', '200', '200', '404', '500'];
const NOT_FOUND = 'tag=web grep "status=404"';
const OK = 'tag=web grep "status=200"';
/** What the person runs after the macro, the same with the macro and written out. */
const TAIL = ' | kv path | count by path | table path count';

/** The Macros page and `$NAME` in the search editor, as a person uses them. */
describe('console macros (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let headers: Record<string, string>;
  let opsGid: number;

  beforeAll(async () => {
    await h.start();
    const analyst = await h.createUser('analyst', PASS);
    headers = analyst.headers;
    const made = await h.svc.request('POST', '/api/groups', { headers: h.admin, json: { Name: 'ops', Desc: 'ops people' } });
    expect(made.status).toBe(200);
    opsGid = made.body as number;
    expect((await h.svc.request('POST', `/api/users/${analyst.uid}/group`, { headers: h.admin, json: { GIDs: [opsGid] } })).status).toBe(200);
    // 600 web entries over the last 50 minutes: 120 with status 404, 360 with 200.
    await h.ingest(
      headers,
      'web',
      Array.from({ length: 600 }, (_, i) => ({ data: `method=GET path=/p${i % 7} status=${STATUSES[i % 5]} bytes=${100 + i}`, ageMs: i * 5000 + 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the macros page and the editor:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, path = '/search'): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, 'analyst', PASS);
    await w.page.getByRole('banner').waitFor();
  }

  const status = (page: Page) => page.locator('.status-row').getByRole('status').first();
  const go = (page: Page, link: string) => goTo(page, link);

  /** Runs `query` by hand and answers the rows of its results table. */
  async function resultsOf(page: Page, query: string): Promise<string[][]> {
    await runQuery(page, query);
    await eventually(async () => expect(await status(page).innerText()).toMatch(/ results? in /), 30000);
    return eventually(async () => {
      const rows = await tableRows(page, 'Results');
      expect(rows.length).toBe(7);
      return rows;
    }, 30000);
  }

  it('makes a macro on the Macros page, completes and runs $NAME in the search editor with the answer of the query written out, edits and deletes it', () =>
    withPage(h, 'macros-make-use', async (w) => {
      const { page } = w;
      await open(w);
      await go(page, 'Macros');
      await page.getByRole('heading', { name: 'Macros', level: 1 }).waitFor();
      await page.getByText('There are no macros yet.', { exact: false }).waitFor();

      // A lower-case name is refused by the service, in its words; the person corrects it.
      await page.getByRole('button', { name: 'New macro' }).click();
      const dialog = page.getByRole('dialog', { name: 'New macro' });
      await dialog.getByLabel('Name').fill('web404');
      await dialog.getByLabel('Description').fill('Requests answered 404');
      await dialog.getByLabel('Expansion').fill(NOT_FOUND);
      await dialog.getByLabel('Labels').fill('web, errors');
      await dialog.getByRole('checkbox', { name: 'ops' }).check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await eventually(async () =>
        expect(await dialog.getByRole('alert').innerText()).toBe('Invalid macro name "web404": use upper-case letters A-Z, digits, _ and -, starting with a letter or digit'),
      );
      shots.push(await keepScreenshot(page, 'macros-refused-name'));
      await dialog.getByLabel('Name').fill('WEB404');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => expect(await page.getByRole('status').filter({ hasText: 'Saved' }).innerText()).toBe('Saved $WEB404.'));
      await eventually(async () => expect((await rowsOf(page, 'Macros')).map((r) => r.slice(0, 4))).toEqual([['$WEB404\nRequests answered 404', NOT_FOUND, 'web\nerrors', 'ops']]));
      expect((await h.svc.request('GET', '/api/macros', { headers })).body).toEqual([
        expect.objectContaining({ Name: 'WEB404', Description: 'Requests answered 404', Expansion: NOT_FOUND, Labels: ['web', 'errors'], GIDs: [opsGid], Global: false }),
      ]);
      shots.push(await keepScreenshot(page, 'macros'));

      // The same name a second time is refused: the person keeps one macro of each name.
      await page.getByRole('button', { name: 'New macro' }).click();
      await dialog.getByLabel('Name').fill('WEB404');
      await dialog.getByLabel('Expansion').fill(OK);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await eventually(async () => expect(await dialog.getByRole('alert').innerText()).toBe('The owner already has a macro named WEB404'));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The filter finds it by $NAME, words of its expansion and its labels.
      const filter = page.getByRole('searchbox', { name: 'Search the macros' });
      for (const [text, n] of [
        ['$web404', 1],
        ['status=404', 1],
        ['errors', 1],
        ['nothing-like-this', 0],
      ] as const) {
        await filter.fill(text);
        await eventually(async () => expect(await page.getByRole('table', { name: 'Macros' }).getByRole('rowheader').count()).toBe(n));
      }
      expect(await page.getByText('No macro matches the filter.').isVisible()).toBe(true);
      await filter.fill('');

      // In the search editor, `$` offers the macro with its expansion; Tab takes it.
      await go(page, 'Search');
      const editor = page.getByRole('textbox', { name: 'Query' });
      await editor.click();
      await page.keyboard.type('$W');
      const option = page.getByRole('listbox').getByRole('option', { name: /^\$WEB404/ });
      await option.waitFor();
      expect(await option.innerText()).toContain(NOT_FOUND);
      await page.keyboard.press('ArrowDown');
      await page.locator('.cm-completionInfo').filter({ hasText: 'Requests answered 404' }).waitFor();
      expect(await page.locator('.cm-completionInfo').innerText()).toBe(`${NOT_FOUND}\n\nRequests answered 404`);
      shots.push(await keepScreenshot(page, 'macros-completion'));
      await page.keyboard.press('Tab');
      await eventually(async () => expect(await editor.innerText()).toBe('$WEB404'));
      expect(await page.getByRole('listbox').count()).toBe(0);
      await page.keyboard.press('Enter');
      await eventually(async () => expect(await status(page).innerText()).toMatch(/^120 results in /), 30000);

      // Resting the pointer on the call shows what it stands for.
      await page.locator('.cm-content').getByText('$WEB404').hover();
      const hover = page.getByRole('tooltip').filter({ hasText: '$WEB404' });
      await hover.waitFor();
      expect((await hover.innerText()).split('\n').filter(Boolean)).toEqual(['$WEB404', NOT_FOUND, 'Requests answered 404']);
      shots.push(await keepScreenshot(page, 'macros-hover'));

      // The macro gives what the query written out gives.
      const withMacro = await resultsOf(page, `$WEB404${TAIL}`);
      const writtenOut = await resultsOf(page, `${NOT_FOUND}${TAIL}`);
      expect(withMacro).toEqual(writtenOut);
      expect(withMacro.reduce((n, r) => n + Number(r[1]), 0)).toBe(120);

      // Edit: the macro now stands for another query, and the search page's next visit uses it.
      await go(page, 'Macros');
      await page.getByRole('button', { name: 'Edit $WEB404' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit $WEB404' });
      expect(await edit.getByLabel('Expansion').inputValue()).toBe(NOT_FOUND);
      expect(await edit.getByRole('checkbox', { name: 'ops' }).isChecked()).toBe(true);
      await edit.getByLabel('Expansion').fill(OK);
      await edit.getByLabel('Description').fill('Requests answered 200');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached' });
      await eventually(async () => expect((await rowsOf(page, 'Macros')).map((r) => r.slice(0, 2))).toEqual([['$WEB404\nRequests answered 200', OK]]));
      expect(await page.getByRole('status').filter({ hasText: 'Updated' }).innerText()).toBe('Updated $WEB404.');
      await go(page, 'Search');
      expect(await resultsOf(page, `$WEB404${TAIL}`)).toEqual(await resultsOf(page, `${OK}${TAIL}`));

      // Delete, after confirming; the call is then a clear error.
      await go(page, 'Macros');
      await page.getByRole('button', { name: 'Delete $WEB404' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete macro' });
      expect(await confirm.innerText()).toContain('Delete “$WEB404”? Queries that use it will no longer run. This cannot be undone.');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('There are no macros yet.', { exact: false }).waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'Deleted' }).innerText()).toBe('Deleted “$WEB404”.');
      expect((await h.svc.request('GET', '/api/macros', { headers })).body).toEqual([]);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('completes a macro that takes arguments as $NAME() with the cursor inside, and runs it with them', () =>
    withPage(h, 'macros-arguments', async (w) => {
      const { page } = w;
      const made = await h.svc.request('POST', '/api/macros', { headers, json: { Name: 'STATUS', Expansion: 'tag=web grep "status=%%1%%"' } });
      expect(made.status).toBe(200);
      await open(w);
      const editor = page.getByRole('textbox', { name: 'Query' });
      await editor.click();
      await page.keyboard.type('$ST');
      const option = page.getByRole('listbox').getByRole('option', { name: /^\$STATUS/ });
      await option.waitFor();
      expect(await option.innerText()).toContain('(1 argument)');
      await page.keyboard.press('Tab');
      await eventually(async () => expect(await editor.innerText()).toBe('$STATUS()'));
      await page.keyboard.type('404');
      await page.keyboard.press('End');
      await page.keyboard.insertText(TAIL);
      expect(await editor.innerText()).toBe(`$STATUS(404)${TAIL}`);
      await page.keyboard.press('Enter');
      await eventually(async () => expect(await status(page).innerText()).toMatch(/ results? in /), 30000);
      const withMacro = await eventually(async () => {
        const rows = await tableRows(page, 'Results');
        expect(rows.length).toBe(7);
        return rows;
      }, 30000);
      expect(withMacro).toEqual(await resultsOf(page, `${NOT_FOUND}${TAIL}`));
      expect((await h.svc.request('DELETE', `/api/macros/${made.body as number}`, { headers })).status).toBe(200);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('fits the Macros page and its dialog into 390 px', () =>
    withPage(
      h,
      'macros-phone',
      async (w) => {
        const { page } = w;
        const long = {
          Name: 'SYSMON_PROCESS_CREATION_WITH_A_RATHER_LONG_NAME',
          Description: 'Process creation events from Sysmon, with the command line and the parent',
          Expansion: 'tag=sysmon winlog EventID==1 Provider=="Microsoft-Windows-Sysmon" Image CommandLine ParentImage User | table Image CommandLine ParentImage User',
          Labels: ['windows', 'sysmon', 'processes'],
          GIDs: [opsGid],
        };
        expect((await h.svc.request('POST', '/api/macros', { headers, json: long })).status).toBe(200);
        await open(w);
        // On a phone the navigation is behind the menu button.
        await goTo(page, 'Macros', { touch: true });
        await page.getByRole('table', { name: 'Macros' }).getByText(`$${long.Name}`).waitFor();
        await expectNoSidewaysScroll(page, 'macros');
        shots.push(await keepScreenshot(page, 'phone-macros'));
        await page.getByRole('button', { name: `Edit $${long.Name}` }).tap();
        const edit = page.getByRole('dialog', { name: `Edit $${long.Name}` });
        await edit.getByRole('checkbox', { name: 'ops' }).waitFor();
        await expectNoSidewaysScroll(page, 'macros-edit');
        shots.push(await keepScreenshot(page, 'phone-macros-edit'));
        await edit.getByRole('button', { name: 'Cancel' }).tap();
        await edit.waitFor({ state: 'detached' });
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
