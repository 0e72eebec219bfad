import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, keepScreenshot, PHONE, rowsOf, runQuery, signIn, tableRows, Watched, withPage, goTo } from './harness';
import { expectNoSidewaysScroll } from './touch';

const PASS = 'pivot-password-1';
const IP = '/\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b/g';
const SEARCH_IP = 'tag=web grep _VALUE_ | kv user | count by user | table user count';
const WHOIS = 'https://whois.example/lookup/_VALUE_';

/** Actionables as a person uses them: made on their page, offered by values in a table and in entries, followed. */
describe('console actionables (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let headers: Record<string, string>;

  beforeAll(async () => {
    await h.start();
    const analyst = await h.createUser('analyst', PASS);
    headers = analyst.headers;
    // 30 web entries over the last half hour: 10.0.0.7 for ann (10), 10.0.0.8 for bob (20).
    await h.ingest(
      headers,
      'web',
      Array.from({ length: 30 }, (_, i) => ({ data: `user=${i % 3 ? 'bob' : 'ann'} ip=10.0.0.${i % 3 ? 8 : 7} status=200`, ageMs: i * 60000 + 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the actionables:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, path = '/search'): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, 'analyst', PASS);
    await w.page.getByRole('banner').waitFor();
  }

  /** The actionable the first test makes on the page, made through the API when a later test runs alone. */
  async function ensureIpActionable(): Promise<void> {
    const list = (await h.svc.request('GET', '/api/pivots', { headers })).body as Array<{ Name: string }>;
    if (list.some((p) => p.Name === 'IP address')) return;
    const Contents = {
      menuLabel: 'Network',
      triggers: [IP],
      actions: [
        { name: 'Search the IP', command: { type: 'query', reference: SEARCH_IP } },
        { name: 'Whois', command: { type: 'url', reference: WHOIS } },
      ],
    };
    expect((await h.svc.request('POST', '/api/pivots', { headers, json: { Name: 'IP address', Contents } })).status).toBe(200);
  }

  const status = (page: Page) => page.locator('.status-row').getByRole('status').first();
  const go = (page: Page, link: string) => goTo(page, link);

  it('makes an actionable on its page; a table cell and an entry offer it; its query action opens the search with the value, its link action the address', () =>
    withPage(h, 'actionables-make-use', async (w) => {
      const { page } = w;
      await page.context().route('https://whois.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>whois</title><p>whois page</p>' }));
      await open(w);
      await go(page, 'Actionables');
      await page.getByRole('heading', { name: 'Actionables', level: 1 }).waitFor();
      await page.getByText('There are no actionables yet.', { exact: false }).waitFor();

      await page.getByRole('button', { name: 'New actionable' }).click();
      const dialog = page.getByRole('dialog', { name: 'New actionable' });
      await dialog.getByLabel('Name', { exact: true }).fill('IP address');
      await dialog.getByLabel('Menu label').fill('Network');
      // A pattern that repeats a repetition is refused by the service, in its words.
      await dialog.getByLabel('Trigger 1 pattern').fill('(?:\\d+\\.?)+');
      await dialog.getByLabel('Test value').fill('from 10.0.0.7 ok');
      await eventually(async () => expect(await dialog.getByRole('status').innerText()).toBe('Matches; the value is “10.0.0.7”.'));
      await dialog.getByLabel('Action 1 name').fill('Search the IP');
      await dialog.getByLabel('Action 1 query').fill(SEARCH_IP);
      await dialog.getByRole('button', { name: 'Add action' }).click();
      await dialog.getByLabel('Action 2 name').fill('Whois');
      await dialog.getByLabel('Action 2 does').selectOption({ label: 'Open a URL' });
      await dialog.getByLabel('Action 2 address').fill(WHOIS);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await eventually(async () =>
        expect(await dialog.getByRole('alert').innerText()).toBe(
          'Contents.triggers[0].pattern: (?:\\d+\\.?)+ repeats a repetition, which can take exponential time in the console; make the inner part match one way only',
        ),
      );
      shots.push(await keepScreenshot(page, 'actionables-refused-pattern'));
      await dialog.getByLabel('Trigger 1 pattern').fill(IP);
      await eventually(async () => expect(await dialog.getByRole('status').innerText()).toBe('Matches; the value is “10.0.0.7”.'));
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => expect(await page.getByRole('status').filter({ hasText: 'Saved' }).innerText()).toBe('Saved “IP address”.'));
      await eventually(async () => expect((await rowsOf(page, 'Actionables')).map((r) => r.slice(0, 3))).toEqual([['IP address', IP, 'Menu: Network\nSearch the IP\nWhois']]));
      const stored = (await h.svc.request('GET', '/api/pivots', { headers })).body as Array<{ Contents: unknown }>;
      expect(stored.map((p) => p.Contents)).toEqual([
        {
          menuLabel: 'Network',
          triggers: [{ pattern: IP, hyperlink: true, disabled: false }],
          actions: [
            { name: 'Search the IP', description: null, placeholder: null, command: { type: 'query', reference: SEARCH_IP, options: {} } },
            { name: 'Whois', description: null, placeholder: null, command: { type: 'url', reference: WHOIS, options: {} } },
          ],
        },
      ]);
      shots.push(await keepScreenshot(page, 'actionables'));

      // A table: the address in a cell is a button with a menu, by keyboard first.
      await go(page, 'Search');
      await runQuery(page, 'tag=web kv ip | count by ip | table ip count');
      await eventually(async () => expect(await status(page).innerText()).toMatch(/ results? in /), 30000);
      await eventually(
        async () =>
          expect(await tableRows(page, 'Results')).toEqual([
            ['10.0.0.7', '10'],
            ['10.0.0.8', '20'],
          ]),
        30000,
      );
      const cell = page.getByRole('table', { name: 'Results' }).getByRole('button', { name: '10.0.0.8' });
      await cell.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu', { name: 'Actions for 10.0.0.8' });
      await menu.waitFor();
      expect(await menu.getByRole('group', { name: 'Network' }).getByRole('menuitem').allInnerTexts()).toEqual(['Search the IP', 'Whois']);
      await eventually(async () => expect(await menu.getByRole('menuitem', { name: 'Search the IP' }).evaluate((el) => el === document.activeElement)).toBe(true));
      await page.keyboard.press('ArrowDown');
      await eventually(async () => expect(await menu.getByRole('menuitem', { name: 'Whois' }).evaluate((el) => el === document.activeElement)).toBe(true));
      shots.push(await keepScreenshot(page, 'actionables-table-menu'));
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expect(await cell.evaluate((el) => el === document.activeElement)).toBe(true);

      // Following the query action opens the search of that address, over the same range, in a new tab.
      await cell.click();
      const [searchTab] = await Promise.all([page.context().waitForEvent('page'), menu.getByRole('menuitem', { name: 'Search the IP' }).click()]);
      await menu.waitFor({ state: 'detached' });
      await eventually(async () => expect(await searchTab.getByRole('textbox', { name: 'Query' }).innerText()).toBe(SEARCH_IP.replace('_VALUE_', '10.0.0.8')), 30000);
      await eventually(async () => expect(await tableRows(searchTab, 'Results')).toEqual([['bob', '20']]), 30000);
      const url = new URL(searchTab.url());
      expect([url.pathname, url.searchParams.get('q'), Number.isFinite(Date.parse(url.searchParams.get('from') ?? ''))]).toEqual([
        '/search',
        SEARCH_IP.replace('_VALUE_', '10.0.0.8'),
        true,
      ]);
      shots.push(await keepScreenshot(searchTab, 'actionables-query-followed'));
      await searchTab.close();

      // An entry list: the address inside an entry's text offers the same menu; the link action opens the address.
      await runQuery(page, 'tag=web grep ann');
      await eventually(async () => expect(await status(page).innerText()).toMatch(/^10 results in /), 30000);
      const entries = page.getByRole('table', { name: 'Entries' });
      const inEntry = entries.getByRole('row').nth(1).getByRole('cell').nth(3).getByRole('button', { name: '10.0.0.7' });
      await inEntry.click();
      const entryMenu = page.getByRole('menu', { name: 'Actions for 10.0.0.7' });
      await entryMenu.waitFor();
      shots.push(await keepScreenshot(page, 'actionables-entry-menu'));
      const [whois] = await Promise.all([page.context().waitForEvent('page'), entryMenu.getByRole('menuitem', { name: 'Whois' }).click()]);
      await eventually(async () => expect(whois.url()).toBe('https://whois.example/lookup/10.0.0.7'));
      await whois.getByText('whois page').waitFor();
      await whois.close();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it("a dashboard tile's value offers its actionables; a dashboard action opens the dashboard its GUID names", () =>
    withPage(h, 'actionables-dashboard', async (w) => {
      const { page } = w;
      const hour = { durationString: 'PT1H', timeframe: 'PT1H', start: null, end: null };
      const Data = {
        version: 2,
        timeframe: hour,
        searches: [{ alias: 'By address', timeframe: hour, query: 'tag=web kv ip | count by ip | table ip count' }],
        tiles: [{ id: 1, title: 'Addresses', renderer: 'table', span: { col: 8, row: 5, x: 0, y: 0 }, searchesIndex: 0, rendererOptions: {} }],
      };
      const made = await h.svc.request('POST', '/api/dashboards', { headers, json: { Name: 'Address overview', GIDs: [], Data } });
      expect(made.status).toBe(200);
      const dashboard = (await h.svc.request('GET', `/api/dashboards/${made.body as number}`, { headers })).body as { GUID: string };
      const Contents = { menuLabel: 'Dashboards', triggers: [IP], actions: [{ name: 'Open the overview', command: { type: 'dashboard', reference: dashboard.GUID } }] };
      expect((await h.svc.request('POST', '/api/pivots', { headers, json: { Name: 'Address dashboard', Contents } })).status).toBe(200);

      await open(w, `/dashboards/${made.body as number}`);
      const tile = page.getByRole('region', { name: 'Addresses', exact: true });
      const value = tile.getByRole('button', { name: '10.0.0.7' });
      await value.waitFor({ timeout: 30000 });
      await value.click();
      const menu = page.getByRole('menu', { name: 'Actions for 10.0.0.7' });
      await menu.waitFor();
      expect(await menu.getByRole('group', { name: 'Dashboards' }).getByRole('menuitem').allInnerTexts()).toEqual(['Open the overview']);
      shots.push(await keepScreenshot(page, 'actionables-tile-menu'));
      const [opened] = await Promise.all([page.context().waitForEvent('page'), menu.getByRole('menuitem', { name: 'Open the overview' }).click()]);
      await opened.getByRole('heading', { name: 'Address overview', level: 1 }).waitFor({ timeout: 30000 });
      expect(new URL(opened.url()).pathname).toBe(`/dashboards/${dashboard.GUID}`);
      await opened.close();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  /**
   * Opens 10.0.0.7's menu in a table of addresses, follows the action `item` of `group` (it opens a
   * new tab) and checks that tab searched who used the address; answers the tab.
   */
  async function followUsersOf(w: Watched, group: string, item: string): Promise<Page> {
    const { page } = w;
    await open(w);
    await runQuery(page, 'tag=web kv ip | count by ip | table ip count');
    const value = page.getByRole('table', { name: 'Results' }).getByRole('button', { name: '10.0.0.7' });
    await value.waitFor({ timeout: 30000 });
    await value.click();
    const menu = page.getByRole('menu', { name: 'Actions for 10.0.0.7' });
    const [opened] = await Promise.all([page.context().waitForEvent('page'), menu.getByRole('group', { name: group }).getByRole('menuitem', { name: item }).click()]);
    await menu.waitFor({ state: 'detached' });
    await eventually(async () => expect(await tableRows(opened, 'Results')).toEqual([['ann', '10']]), 30000);
    expect(new URL(opened.url()).searchParams.get('q')).toBe('tag=web grep 10.0.0.7 | kv user | count by user | table user count');
    return opened;
  }

  it('a saved-query action searches the library entry its GUID names, with the value in place', () =>
    withPage(h, 'actionables-saved-query', async (w) => {
      const entry = await h.svc.request('POST', '/api/library', {
        headers,
        json: { Name: 'Who used an address', Query: 'tag=web grep _VALUE_ | kv user | count by user | table user count' },
      });
      expect(entry.status).toBe(200);
      const guid = (entry.body as { GUID: string }).GUID;
      const Contents = { menuLabel: 'Library', triggers: [IP], actions: [{ name: 'Who used it', command: { type: 'savedQuery', reference: guid } }] };
      expect((await h.svc.request('POST', '/api/pivots', { headers, json: { Name: 'Saved address search', Contents } })).status).toBe(200);
      const opened = await followUsersOf(w, 'Library', 'Who used it');
      await opened.close();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('a template action fills the template with the value and opens its search', () =>
    withPage(h, 'actionables-template', async (w) => {
      const template = await h.svc.request('POST', '/api/templates', {
        headers,
        json: {
          Name: 'Users of an address',
          Contents: { query: 'tag=web grep %%IP%% | kv user | count by user | table user count', variables: [{ name: '%%IP%%', label: 'IP address', required: true }] },
        },
      });
      expect(template.status).toBe(200);
      const guid = (template.body as { GUID: string }).GUID;
      const Contents = { menuLabel: 'Templates', triggers: [IP], actions: [{ name: 'Users of it', command: { type: 'template', reference: guid } }] };
      expect((await h.svc.request('POST', '/api/pivots', { headers, json: { Name: 'Template address search', Contents } })).status).toBe(200);
      const opened = await followUsersOf(w, 'Templates', 'Users of it');
      shots.push(await keepScreenshot(opened, 'actionables-template-run'));
      await opened.close();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it("a chart's data offers the actionables of its series", () =>
    withPage(h, 'actionables-chart', async (w) => {
      const { page } = w;
      await ensureIpActionable();
      await open(w);
      await runQuery(page, 'tag=web kv ip | stats count by ip over 10m | chart count by ip');
      await page.getByRole('img', { name: /^Line chart of (10\.0\.0\.[78](, )?){2} over/ }).waitFor({ timeout: 30000 });
      await page.getByRole('button', { name: 'Show data' }).click();
      await page.getByRole('table', { name: 'Chart data' }).getByRole('columnheader', { name: '10.0.0.8' }).getByRole('button', { name: '10.0.0.8' }).click();
      const menu = page.getByRole('menu', { name: 'Actions for 10.0.0.8' });
      await menu.waitFor();
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(expect.arrayContaining(['Search the IP', 'Whois']));
      shots.push(await keepScreenshot(page, 'actionables-chart-data-menu'));
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('offers the menu of a table value at 390 px, inside the screen; the page and its dialog fit too', () =>
    withPage(
      h,
      'actionables-phone',
      async (w) => {
        const { page } = w;
        await ensureIpActionable();
        await open(w);
        await runQuery(page, 'tag=web kv ip user | count by ip user | table user ip count');
        await eventually(
          async () =>
            expect(await tableRows(page, 'Results')).toEqual([
              ['ann', '10.0.0.7', '10'],
              ['bob', '10.0.0.8', '20'],
            ]),
          30000,
        );
        await page.getByRole('table', { name: 'Results' }).getByRole('button', { name: '10.0.0.7' }).tap();
        const menu = page.getByRole('menu', { name: 'Actions for 10.0.0.7' });
        await menu.waitFor();
        const box = (await menu.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
        await expectNoSidewaysScroll(page, 'actionables-menu');
        shots.push(await keepScreenshot(page, 'phone-actionables-menu'));
        // A tap outside closes it.
        await page.mouse.click(20, 800);
        await menu.waitFor({ state: 'detached' });

        await goTo(page, 'Actionables', { touch: true });
        await page.getByRole('table', { name: 'Actionables' }).getByText('IP address').waitFor();
        await expectNoSidewaysScroll(page, 'actionables');
        shots.push(await keepScreenshot(page, 'phone-actionables'));
        await page.getByRole('button', { name: 'Edit IP address' }).tap();
        const edit = page.getByRole('dialog', { name: 'Edit “IP address”' });
        await edit.getByLabel('Trigger 1 pattern').waitFor();
        expect(await edit.getByLabel('Action 2 address').inputValue()).toBe(WHOIS);
        await expectNoSidewaysScroll(page, 'actionables-edit');
        shots.push(await keepScreenshot(page, 'phone-actionables-edit'));
        await edit.getByRole('button', { name: 'Cancel' }).tap();
        await edit.waitFor({ state: 'detached' });
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
