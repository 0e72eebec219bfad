import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, keepScreenshot, PHONE, rowsOf, runQuery, signIn, tableRows, Watched, withPage, goTo } from './harness';
import { expectNoSidewaysScroll } from './touch';

const PASS = 'template-password-1';
const STATUSES = ['200', '200', '200', '404', '500'];
const ENTRIES = 600;
const TEMPLATE_QUERY = 'tag=web grep "status=%%STATUS%%" | kv path | count by path | table path count';
const byHand = (status: string) => TEMPLATE_QUERY.replace('%%STATUS%%', status);
/** The rows `byHand(status)` answers, sorted: the paths of the entries with that status, counted. */
function expectedRows(status: string): string[][] {
  const counts = new Map<string, number>();
  for (let i = 0; i < ENTRIES; i++) if (STATUSES[i % 5] === status) counts.set(`/p${i % 7}`, (counts.get(`/p${i % 7}`) ?? 0) + 1);
  return [...counts].map(([p, n]) => [p, String(n)]).sort();
}
const sorted = (rows: string[][]) => [...rows].sort();

interface StoredTemplate {
  GUID: string;
  ThingUUID: string;
  Name: string;
  Contents: { query: string; variables: Array<{ name: string; label: string; description: string; required: boolean; defaultValue: string }> };
}

/** The Templates page, its Run dialog, "Save as template" and a dashboard whose tile runs a template, as a person uses them. */
describe('console templates (browser)', () => {
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
    // 600 web entries over the last 50 minutes: 360 with status 200, 120 with 404, 120 with 500.
    await h.ingest(
      headers,
      'web',
      Array.from({ length: ENTRIES }, (_, i) => ({ data: `method=GET path=/p${i % 7} status=${STATUSES[i % 5]} bytes=${100 + i}`, ageMs: i * 5000 + 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the templates page, its dialogs and a dashboard running a template:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, path = '/search'): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, 'analyst', PASS);
    await w.page.getByRole('banner').waitFor();
  }

  const status = (page: Page) => page.locator('.status-row').getByRole('status').first();
  const go = (page: Page, link: string) => goTo(page, link);
  const stored = async () => (await h.svc.request('GET', '/api/templates', { headers })).body as StoredTemplate[];
  const tile = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
  async function tileRows(page: Page, name: string): Promise<string[][]> {
    const out: string[][] = [];
    for (const row of await tile(page, name).getByRole('table', { name: 'Results', exact: true }).getByRole('row').all()) {
      const cells = await row.getByRole('cell').allInnerTexts();
      if (cells.length) out.push(cells.map((c) => c.trim()));
    }
    return out;
  }

  /** The rows of the search page's results table once the search has ended. */
  async function results(page: Page, rows: number): Promise<string[][]> {
    await eventually(async () => expect(await status(page).innerText()).toMatch(/ results? in /), 30000);
    return eventually(async () => {
      const r = await tableRows(page, 'Results');
      expect(r.length).toBe(rows);
      return r;
    }, 30000);
  }

  it('makes a template on the Templates page, runs it through the Run dialog with the answer of the query written out, and saves one from the search page', () =>
    withPage(h, 'templates-make-run', async (w) => {
      const { page } = w;
      await open(w);
      await go(page, 'Templates');
      await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
      await page.getByText('There are no templates yet.', { exact: false }).waitFor();

      await page.getByRole('button', { name: 'New template' }).click();
      const dialog = page.getByRole('dialog', { name: 'New template' });
      await dialog.getByLabel('Name', { exact: true }).fill('Paths by status');
      await dialog.getByLabel('Description', { exact: true }).fill('Requests of one status, by path');
      await dialog.getByLabel('Query', { exact: true }).fill(TEMPLATE_QUERY);
      // The %%NAME%% written in the query becomes a variable with one button.
      await dialog.getByRole('button', { name: 'Add the %%NAME%% of the query' }).click();
      expect(await dialog.getByLabel('Variable 1 name in the query').inputValue()).toBe('%%STATUS%%');
      expect(await dialog.getByLabel('Variable 1 label').inputValue()).toBe('Status');
      expect(await dialog.getByLabel('Variable 1 require a value').isChecked()).toBe(true);
      await dialog.getByLabel('Variable 1 hint').fill('An HTTP status, such as 404');
      await dialog.getByLabel('Variable 1 default value').fill('404');
      // A second variable whose name has a space is refused before anything is sent.
      await dialog.getByRole('button', { name: 'Add variable' }).click();
      await dialog.getByLabel('Variable 2 name in the query').fill('%%NOT ONE WORD%%');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await eventually(async () =>
        expect(await dialog.getByRole('alert').innerText()).toBe('The variable name “%%NOT ONE WORD%%” has spaces; a name is written in the query as one word, such as %%IP%%.'),
      );
      shots.push(await keepScreenshot(page, 'templates-new'));
      await dialog.getByRole('button', { name: 'Remove variable 2' }).click();
      await dialog.getByLabel('Labels').fill('web');
      await dialog.getByRole('checkbox', { name: 'ops' }).check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => expect(await page.getByRole('status').filter({ hasText: 'Saved' }).innerText()).toBe('Saved “Paths by status”.'));
      await eventually(async () =>
        expect((await rowsOf(page, 'Templates')).map((r) => r.slice(0, 5))).toEqual([
          ['Paths by status\nRequests of one status, by path', TEMPLATE_QUERY, '%%STATUS%%', 'web', 'ops'],
        ]),
      );
      expect(await stored()).toEqual([
        expect.objectContaining({
          Name: 'Paths by status',
          Contents: {
            query: TEMPLATE_QUERY,
            variables: [{ name: '%%STATUS%%', label: 'Status', description: 'An HTTP status, such as 404', required: true, defaultValue: '404', previewValue: null }],
          },
        }),
      ]);
      shots.push(await keepScreenshot(page, 'templates'));

      // The filter finds it by a variable's name.
      const filter = page.getByRole('searchbox', { name: 'Search the templates' });
      await filter.fill('%%status%%');
      await eventually(async () => expect(await page.getByRole('table', { name: 'Templates' }).getByRole('rowheader').count()).toBe(1));
      await filter.fill('nothing-like-this');
      await page.getByText('No template matches the filter.').waitFor();
      await filter.fill('');

      // Run: the dialog asks for the variable, its default filled in and marked required.
      await page.getByRole('button', { name: 'Run Paths by status' }).click();
      const run = page.getByRole('dialog', { name: 'Run “Paths by status”' });
      const value = run.getByLabel('Status (required)');
      expect(await value.inputValue()).toBe('404');
      expect(await run.getByText('An HTTP status, such as 404').isVisible()).toBe(true);
      await value.fill('');
      await run.getByRole('button', { name: 'Run' }).click();
      expect(await value.evaluate((e) => (e as HTMLInputElement).validity.valueMissing)).toBe(true);
      await value.fill('500');
      shots.push(await keepScreenshot(page, 'templates-run'));
      await run.getByRole('button', { name: 'Run' }).click();
      await page.waitForURL(/\/search\?/);
      await eventually(async () => expect(await page.getByRole('textbox', { name: 'Query' }).innerText()).toBe(byHand('500')));
      const viaTemplate = await results(page, 7);
      expect(sorted(viaTemplate)).toEqual(expectedRows('500'));
      shots.push(await keepScreenshot(page, 'templates-ran'));
      // ...the same as the query written out by hand.
      await runQuery(page, byHand('500'));
      expect(sorted(await results(page, 7))).toEqual(sorted(viaTemplate));

      // "Save as template" from the search page: the query, and a variable for each %%NAME%% in it.
      const editor = page.getByRole('textbox', { name: 'Query' });
      await editor.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText('tag=web grep "path=%%PATH%%" | count');
      await page.getByRole('button', { name: 'Save as template' }).click();
      const save = page.getByRole('dialog', { name: 'Save as template' });
      expect(await save.getByRole('textbox', { name: 'Query', exact: true }).inputValue()).toBe('tag=web grep "path=%%PATH%%" | count');
      expect(await save.getByLabel('Variable 1 name in the query').inputValue()).toBe('%%PATH%%');
      await save.getByLabel('Name', { exact: true }).fill('Count of a path');
      await save.getByLabel('Variable 1 default value').fill('/p1');
      shots.push(await keepScreenshot(page, 'templates-save-from-search'));
      await save.getByRole('button', { name: 'Save' }).click();
      await save.waitFor({ state: 'detached' });
      await eventually(async () =>
        expect(await page.getByRole('status').filter({ hasText: 'Saved “Count of a path”' }).innerText()).toBe('Saved “Count of a path” to the templates.'),
      );
      expect((await stored()).find((t) => t.Name === 'Count of a path')?.Contents).toEqual({
        query: 'tag=web grep "path=%%PATH%%" | count',
        variables: [{ name: '%%PATH%%', label: 'Path', description: '', required: true, defaultValue: '/p1', previewValue: null }],
      });

      // Edit, then delete after confirming.
      await go(page, 'Templates');
      await page.getByRole('button', { name: 'Edit Count of a path' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit “Count of a path”' });
      await edit.getByLabel('Variable 1 require a value').uncheck();
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached' });
      await eventually(async () => expect(await page.getByRole('status').filter({ hasText: 'Updated' }).innerText()).toBe('Updated “Count of a path”.'));
      expect((await stored()).find((t) => t.Name === 'Count of a path')?.Contents.variables[0].required).toBe(false);
      await page.getByRole('button', { name: 'Delete Count of a path' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete template' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await eventually(async () => expect(await page.getByRole('status').filter({ hasText: 'Deleted' }).innerText()).toBe('Deleted “Count of a path”.'));
      expect((await stored()).map((t) => t.Name)).toEqual(['Paths by status']);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('runs a dashboard whose tile runs a template: asks for the variable (the dashboard’s default filled in), runs the tile, and again with another value', () =>
    withPage(h, 'templates-dashboard', async (w) => {
      const { page } = w;
      const tpl = (await stored()).find((t) => t.Name === 'Paths by status')!;
      const data = {
        version: 2,
        timeframe: { durationString: 'PT1H', timeframe: 'PT1H', start: null, end: null },
        searches: [
          { alias: 'By status', reference: { id: tpl.GUID, type: 'template', extras: { defaultValue: '500' } } },
          { alias: 'All', query: 'tag=web count | numbercard count' },
        ],
        tiles: [
          { id: 1, title: 'Paths', renderer: 'table', span: { col: 8, row: 6, x: 0, y: 0 }, searchesIndex: 0, rendererOptions: {} },
          { id: 2, title: 'Total', renderer: 'numbercard', span: { col: 4, row: 4, x: 8, y: 0 }, searchesIndex: 1, rendererOptions: {} },
        ],
      };
      const made = await h.svc.request('POST', '/api/dashboards', { headers, json: { Name: 'Investigate a status', GIDs: [], Data: data } });
      expect(made.status).toBe(200);
      const launches: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/searchctrl/launch')) launches.push((r.postDataJSON() as { SearchString: string }).SearchString);
      });
      await open(w, `/dashboards/${made.body as number}`);
      const ask = page.getByRole('dialog', { name: 'Dashboard variables' });
      await ask.waitFor();
      // The dashboard's own default (extras.defaultValue) comes before the template's.
      expect(await ask.getByLabel('Status (required)').inputValue()).toBe('500');
      // Meanwhile the tile that needs no variable runs; the template's waits.
      await tile(page, 'Total')
        .getByRole('listitem', { name: `count: ${ENTRIES}` })
        .waitFor({ timeout: 30000 });
      shots.push(await keepScreenshot(page, 'templates-dashboard-ask'));
      await ask.getByRole('button', { name: 'Run' }).click();
      await ask.waitFor({ state: 'detached' });
      await eventually(async () => expect(sorted(await tileRows(page, 'Paths'))).toEqual(expectedRows('500')), 30000);
      expect(launches).toContain(byHand('500'));
      expect(await page.getByRole('group', { name: 'Dashboard variables' }).innerText()).toContain('Status = 500');
      shots.push(await keepScreenshot(page, 'templates-dashboard'));

      await page.getByRole('button', { name: 'Change variables' }).click();
      await ask.getByLabel('Status (required)').fill('200');
      await ask.getByRole('button', { name: 'Run' }).click();
      await eventually(async () => expect(sorted(await tileRows(page, 'Paths'))).toEqual(expectedRows('200')), 30000);
      expect(launches).toContain(byHand('200'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('fits the Templates page, its dialogs and a dashboard’s variables into 390 px', () =>
    withPage(
      h,
      'templates-phone',
      async (w) => {
        const { page } = w;
        const long = {
          Name: 'Sysmon process creation by a rather long image name',
          Description: 'Process creation events from Sysmon, with the command line and the parent, for one image',
          Labels: ['windows', 'sysmon', 'processes'],
          GIDs: [opsGid],
          Contents: {
            query: 'tag=sysmon winlog EventID==1 Provider=="Microsoft-Windows-Sysmon" Image==%%IMAGE_PATH_OF_THE_PROCESS%% CommandLine ParentImage User | table Image CommandLine',
            variables: [{ name: '%%IMAGE_PATH_OF_THE_PROCESS%%', label: 'Image path', description: 'C:\\Windows\\System32\\cmd.exe or another', required: true, defaultValue: '' }],
          },
        };
        expect((await h.svc.request('POST', '/api/templates', { headers, json: long })).status).toBe(200);
        await open(w);
        await goTo(page, 'Templates', { touch: true });
        await page.getByRole('table', { name: 'Templates' }).getByText(long.Name).waitFor();
        await expectNoSidewaysScroll(page, 'templates');
        shots.push(await keepScreenshot(page, 'phone-templates'));

        await page.getByRole('button', { name: `Run ${long.Name}` }).tap();
        const run = page.getByRole('dialog', { name: `Run “${long.Name}”` });
        await run.getByLabel('Image path (required)').waitFor();
        await expectNoSidewaysScroll(page, 'templates-run');
        shots.push(await keepScreenshot(page, 'phone-templates-run'));
        await run.getByRole('button', { name: 'Cancel' }).tap();
        await run.waitFor({ state: 'detached' });

        await page.getByRole('button', { name: `Edit ${long.Name}` }).tap();
        const edit = page.getByRole('dialog', { name: `Edit “${long.Name}”` });
        await edit.getByLabel('Variable 1 name in the query').waitFor();
        await expectNoSidewaysScroll(page, 'templates-edit');
        shots.push(await keepScreenshot(page, 'phone-templates-edit'));
        await edit.getByRole('button', { name: 'Cancel' }).tap();
        await edit.waitFor({ state: 'detached' });

        const dashboards = (await h.svc.request('GET', '/api/dashboards', { headers })).body as Array<{ ID: number; Name: string }>;
        await page.goto(`/dashboards/${dashboards.find((d) => d.Name === 'Investigate a status')!.ID}`);
        const ask = page.getByRole('dialog', { name: 'Dashboard variables' });
        await ask.getByLabel('Status (required)').waitFor();
        await expectNoSidewaysScroll(page, 'dashboard-variables');
        shots.push(await keepScreenshot(page, 'phone-templates-dashboard-ask'));
        await ask.getByRole('button', { name: 'Run' }).tap();
        await eventually(async () => expect(sorted(await tileRows(page, 'Paths'))).toEqual(expectedRows('500')), 30000);
        await expectNoSidewaysScroll(page, 'dashboard-with-variables');
        shots.push(await keepScreenshot(page, 'phone-templates-dashboard'));
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
