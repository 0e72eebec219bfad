import { Page } from 'playwright-core';
import { ADMIN_PASSWORD } from '../faults/service';
import { ConsoleHarness, eventually, keepScreenshot, PHONE, signIn, tableRows, Watched, withPage, goTo } from './harness';
import { expectNoSidewaysScroll, onScreen, swipeLeft } from './touch';

const PASS = 'phone-password-1';
const STATUSES = ['200', '200', '200', '404', '500'];
const TABLE_QUERY = 'tag=web kv status | count by status | table status count';
const CHART_QUERY = 'tag=web kv status | stats count by status over 5m | chart count by status';
const CARD_QUERY = 'tag=web count | numbercard count';

/** The console on a phone held upright (390 px): every page fits, its menus work by tapping, wide tables scroll inside themselves. */
describe('console on a phone (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let analyst: { uid: number; headers: Record<string, string> };
  let dashboardId: number;

  beforeAll(async () => {
    await h.start();
    analyst = await h.createUser('analyst', PASS);
    await h.createUser('bernadette-with-a-long-name', PASS);
    const g = await h.svc.request('POST', '/api/groups', { headers: h.admin, json: { Name: 'operations', Desc: 'the people on call' } });
    expect((await h.svc.request('POST', `/api/users/${analyst.uid}/group`, { headers: h.admin, json: { GIDs: [g.body as number] } })).status).toBe(200);
    await h.ingest(
      analyst.headers,
      'web',
      Array.from({ length: 300 }, (_, i) => ({ data: `method=GET path=/checkout/cart/p${i % 7} status=${STATUSES[i % 5]} bytes=${100 + i}`, ageMs: i * 5000 + 1000 })),
    );
    const made = await h.svc.request('POST', '/api/dashboards', {
      headers: analyst.headers,
      json: {
        Name: 'Web overview',
        Description: 'Requests of the shop',
        GIDs: [],
        Data: {
          version: 2,
          timeframe: { durationString: 'PT1H', timeframe: 'PT1H', start: null, end: null },
          searches: [{ query: TABLE_QUERY }, { query: CHART_QUERY }, { query: CARD_QUERY }],
          tiles: [
            { id: 1, title: 'Requests by status', renderer: 'table', span: { col: 8, row: 7, x: 0, y: 0 }, searchesIndex: 0, rendererOptions: {} },
            { id: 2, title: 'Status over time', renderer: 'bar', span: { col: 8, row: 7, x: 8, y: 0 }, searchesIndex: 1, rendererOptions: {} },
            { id: 3, title: 'All requests', renderer: 'numbercard', span: { col: 16, row: 4, x: 0, y: 7 }, searchesIndex: 2, rendererOptions: {} },
          ],
        },
      },
    });
    expect(made.status).toBe(200);
    dashboardId = made.body as number;
    expect(
      (await h.svc.request('POST', '/api/library', { headers: analyst.headers, json: { Name: 'Statuses', Description: 'per status', Query: TABLE_QUERY, Labels: ['web'] } }))
        .status,
    ).toBe(200);
    expect(
      (
        await h.svc.request('POST', '/api/resources', {
          headers: analyst.headers,
          json: { ResourceName: 'hosts table', Description: 'hosts and addresses', GroupACL: [], Global: false },
        })
      ).status,
    ).toBe(200);
    const file = new FormData();
    file.set('file', new Blob(['a,b\n1,2\n']), 'report.csv');
    file.set('name', 'weekly report');
    file.set('desc', 'numbers of the week');
    expect((await h.svc.request('POST', '/api/files', { headers: analyst.headers, body: file })).status).toBe(200);
    expect(
      (await h.svc.request('POST', '/api/tokens', { headers: analyst.headers, json: { name: 'log shipper', description: 'ships logs', capabilities: ['Ingest'] } })).status,
    ).toBe(200);
    const launched = await h.svc.request('POST', '/api/searchctrl/launch', { headers: analyst.headers, json: { SearchString: TABLE_QUERY, Background: true } });
    expect(launched.status).toBe(200);
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots at 390 px:\n${shots.join('\n')}\n`);
  });

  async function signInAs(w: Watched, user: string, pass: string, path: string): Promise<void> {
    await w.page.goto(path);
    await w.page.getByRole('heading', { name: 'Sign in to search' }).waitFor();
    await expectNoSidewaysScroll(w.page, 'sign-in');
    await signIn(w.page, user, pass);
    await w.page.getByRole('banner').waitFor();
  }

  /** Opens the navigation menu by tapping it and taps the page's link (in its Tools or Admin menu when it stands in one). */
  const goByMenu = (page: Page, link: string) => goTo(page, link, { touch: true });

  /** Opens the account menu by tapping it and taps the page's link. */
  async function goByAccount(page: Page, user: string, link: string): Promise<void> {
    await page.getByLabel(`Account: ${user}`).tap();
    await page.getByRole('group', { name: 'Account' }).getByRole('link', { name: link }).tap();
  }

  async function look(page: Page, name: string): Promise<void> {
    await expectNoSidewaysScroll(page, name);
    shots.push(await keepScreenshot(page, `phone-${name}`));
  }

  it("fits every one of a person's pages into 390 px, reached through the menus by tapping", () =>
    withPage(
      h,
      'phone-pages',
      async (w) => {
        const { page } = w;
        await signInAs(w, 'analyst', PASS, '/search');
        await page.getByRole('textbox', { name: 'Query' }).waitFor();
        await look(page, 'search-empty');

        await page.getByRole('button', { name: 'Menu' }).tap();
        const nav = page.getByRole('navigation', { name: 'Main' });
        for (const link of ['Search', 'Dashboards', 'Playbooks', 'Library', 'History', 'Persistent searches'])
          expect(await onScreen(nav.getByRole('link', { name: link, exact: true }), page)).toBe(true);
        await nav.getByText('Tools', { exact: true }).tap();
        for (const link of ['Macros', 'Templates', 'Extractors', 'Resources', 'Files']) expect(await onScreen(nav.getByRole('link', { name: link, exact: true }), page)).toBe(true);
        await look(page, 'menu-open');
        await nav.getByRole('link', { name: 'Dashboards', exact: true }).tap();
        await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
        expect(await nav.getByRole('link', { name: 'Library', exact: true }).isVisible()).toBe(false); // the menu closed behind the tap
        await page.getByRole('table', { name: 'Dashboards' }).getByRole('link', { name: 'Web overview' }).waitFor();
        await look(page, 'dashboards');

        await page.getByRole('button', { name: /^Notifications/ }).tap();
        const bell = page.getByRole('region', { name: 'Notifications' });
        await bell.getByText('No unread notifications.').waitFor();
        expect(await onScreen(bell, page)).toBe(true);
        await look(page, 'notifications');
        await page.getByRole('button', { name: /^Notifications/ }).tap();
        await bell.waitFor({ state: 'detached' });

        const pages: Array<[string, string, () => Promise<unknown>]> = [
          ['Library', 'library', () => page.getByRole('table', { name: 'Library entries' }).getByText('Statuses').waitFor()],
          ['History', 'history', () => page.getByRole('heading', { name: 'Search history' }).waitFor()],
          ['Persistent searches', 'searches', () => page.getByRole('table', { name: 'Persistent searches' }).getByRole('row').nth(1).waitFor()],
          ['Resources', 'resources', () => page.getByRole('table', { name: 'Resources' }).getByText('hosts table').waitFor()],
          ['Files', 'files', () => page.getByRole('table', { name: 'Files' }).getByText('weekly report').waitFor()],
        ];
        for (const [link, name, ready] of pages) {
          await goByMenu(page, link);
          await ready();
          await look(page, name);
        }

        await page.getByLabel('Account: analyst').tap();
        const account = page.getByRole('group', { name: 'Account' });
        for (const item of [account.getByRole('link', { name: 'API tokens' }), account.getByRole('button', { name: 'Sign out everywhere' })])
          expect(await onScreen(item, page)).toBe(true);
        await look(page, 'account-menu');
        await account.getByRole('link', { name: 'API tokens' }).tap();
        await page.getByRole('table', { name: 'API tokens' }).getByText('log shipper').waitFor();
        await look(page, 'tokens');
        await goByAccount(page, 'analyst', 'Preferences');
        await page.getByRole('heading', { name: 'Preferences' }).waitFor();
        await look(page, 'preferences');

        await page.goto('/no-such-page');
        await page.getByRole('heading', { name: 'Page not found' }).waitFor();
        await look(page, 'not-found');

        await page.getByLabel('Account: analyst').tap();
        await page.getByRole('group', { name: 'Account' }).getByRole('button', { name: 'Sign out', exact: true }).tap();
        await page.waitForURL('**/login');
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));

  it('gives the query editor the full width and shows entries, tables and charts within 390 px', () =>
    withPage(
      h,
      'phone-search',
      async (w) => {
        const { page } = w;
        await signInAs(w, 'analyst', PASS, '/search');
        const editor = page.getByRole('textbox', { name: 'Query' });
        await editor.tap();
        await page.keyboard.insertText('tag=web grep checkout');
        await page.keyboard.press('Enter');
        // The editor spans the page (less its padding), not a sliver beside the buttons.
        const box = (await editor.boundingBox())!;
        expect(box.width).toBeGreaterThan(PHONE.width - 60);
        // A word is never broken across lines: the whole query stays on one line.
        expect(await page.getByRole('textbox', { name: 'Query' }).evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(40);
        await page
          .getByRole('status')
          .filter({ hasText: /^300 results in / })
          .waitFor({ timeout: 30000 });
        await eventually(async () => expect((await tableRows(page, 'Entries')).length).toBeGreaterThan(3));
        await page.getByRole('img', { name: /^Histogram of 300 entries/ }).waitFor();
        await look(page, 'search-entries');

        await page.getByRole('button', { name: /^Time range: / }).tap();
        const picker = page.getByRole('dialog', { name: 'Time range' });
        await picker.waitFor();
        expect(await onScreen(picker, page)).toBe(true);
        await look(page, 'search-time-picker');
        await picker.getByRole('button', { name: 'Last 4 hours' }).tap();

        await editor.tap();
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.press('Backspace');
        await page.keyboard.insertText(TABLE_QUERY);
        await page.getByRole('button', { name: 'Search', exact: true }).tap();
        await eventually(async () => expect((await tableRows(page, 'Results')).length).toBe(3), 30000);
        await look(page, 'search-table');

        await editor.tap();
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.press('Backspace');
        await page.keyboard.insertText(CHART_QUERY);
        await page.getByRole('button', { name: 'Search', exact: true }).tap();
        const chart = page.getByRole('img', { name: /^Line chart of 200, 404, 500/ });
        await chart.waitFor({ timeout: 30000 });
        expect(await onScreen(chart, page)).toBe(true);
        await look(page, 'search-chart');
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));

  it('shows a dashboard in one column, its tiles one under the other at the full width', () =>
    withPage(
      h,
      'phone-dashboard',
      async (w) => {
        const { page } = w;
        await signInAs(w, 'analyst', PASS, `/dashboards/${dashboardId}`);
        await page.getByRole('heading', { name: 'Web overview', level: 1 }).waitFor();
        const tiles = ['Requests by status', 'Status over time', 'All requests'].map((name) => page.getByRole('region', { name, exact: true }));
        await tiles[0].getByRole('table', { name: 'Results' }).getByRole('row').nth(3).waitFor({ timeout: 30000 });
        await tiles[2].getByRole('listitem', { name: 'count: 300' }).waitFor({ timeout: 30000 });
        const boxes = await Promise.all(tiles.map(async (t) => (await t.boundingBox())!));
        for (const b of boxes) {
          expect(b.width).toBeGreaterThan(PHONE.width - 60);
          expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
        }
        // In the order of the wide layout (left to right, then down), one under the other.
        expect(boxes[0].y + boxes[0].height).toBeLessThanOrEqual(boxes[1].y);
        expect(boxes[1].y + boxes[1].height).toBeLessThanOrEqual(boxes[2].y);
        await look(page, 'dashboard');
        await tiles[1].scrollIntoViewIfNeeded();
        await tiles[1].getByRole('img', { name: /^Bar chart of 200, 404, 500/ }).waitFor({ timeout: 30000 });
        await look(page, 'dashboard-chart');
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));

  it('still fits at 360 px, the narrowest phone it is made for', () =>
    withPage(
      h,
      'phone-360',
      async (w) => {
        const { page } = w;
        await signInAs(w, 'analyst', PASS, '/search');
        for (const control of [page.getByRole('button', { name: 'Menu' }), page.getByRole('button', { name: /^Notifications/ }), page.getByLabel('Account: analyst')])
          expect(await onScreen(control, page)).toBe(true);
        await page.getByRole('textbox', { name: 'Query' }).tap();
        await page.keyboard.insertText(TABLE_QUERY);
        await page.keyboard.press('Enter');
        await eventually(async () => expect((await tableRows(page, 'Results')).length).toBe(3), 30000);
        await look(page, '360-search');
        for (const [link, ready] of [
          ['Dashboards', () => page.getByRole('table', { name: 'Dashboards' }).waitFor()],
          ['Persistent searches', () => page.getByRole('table', { name: 'Persistent searches' }).waitFor()],
          ['Files', () => page.getByRole('table', { name: 'Files' }).waitFor()],
        ] as const) {
          await goByMenu(page, link);
          await ready();
          await expectNoSidewaysScroll(page, `360 ${link}`);
        }
        await page.goto(`/dashboards/${dashboardId}`);
        await page.getByRole('region', { name: 'All requests', exact: true }).getByRole('listitem', { name: 'count: 300' }).waitFor({ timeout: 30000 });
        await look(page, '360-dashboard');
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: { ...PHONE, width: 360, height: 740 } },
    ));

  it("lets an administrator reach the Admin menu by tapping, and scroll the users table itself to a user's Lock and Delete", () =>
    withPage(
      h,
      'phone-admin',
      async (w) => {
        const { page } = w;
        await signInAs(w, 'admin', ADMIN_PASSWORD, '/search');
        await page.getByRole('button', { name: 'Menu' }).tap();
        const nav = page.getByRole('navigation', { name: 'Main' });
        await nav.getByText('Admin', { exact: true }).tap();
        for (const link of ['Users', 'Groups', 'Status']) expect(await onScreen(nav.getByRole('link', { name: link }), page)).toBe(true);
        await look(page, 'admin-menu');
        await nav.getByRole('link', { name: 'Users' }).tap();
        const table = page.getByRole('table', { name: 'Users' });
        await table.getByRole('rowheader', { name: 'bernadette-with-a-long-name' }).waitFor();
        await look(page, 'users');

        // Lock and Delete sit at the table's far end: a swipe across the table (not the page) brings them into reach.
        const lock = page.getByRole('button', { name: 'Lock bernadette-with-a-long-name' });
        const remove = page.getByRole('button', { name: 'Delete bernadette-with-a-long-name' });
        const cdp = await page.context().newCDPSession(page);
        await eventually(async () => {
          if (!(await onScreen(remove, page))) await swipeLeft(cdp, table, 300);
          expect(await onScreen(remove, page)).toBe(true);
          expect(await onScreen(lock, page)).toBe(true);
        }, 20000);
        expect(await page.evaluate(() => window.scrollX)).toBe(0);
        await expectNoSidewaysScroll(page, 'users-scrolled');
        shots.push(await keepScreenshot(page, 'phone-users-scrolled'));
        await remove.tap();
        const confirm = page.getByRole('dialog', { name: /^Delete/ });
        await confirm.waitFor();
        expect(await onScreen(confirm, page)).toBe(true);
        await confirm.getByRole('button', { name: 'Cancel' }).tap();
        await lock.tap();
        const lockDialog = page.getByRole('dialog', { name: /^Lock/ });
        await lockDialog.waitFor();
        await look(page, 'lock-dialog');
        await lockDialog.getByRole('button', { name: 'Cancel' }).tap();

        await page.getByRole('button', { name: 'Menu' }).tap();
        await nav.getByText('Admin', { exact: true }).tap();
        await nav.getByRole('link', { name: 'Groups' }).tap();
        await page.getByRole('table', { name: 'Groups' }).getByText('operations').waitFor();
        await look(page, 'groups');
        await page.getByRole('button', { name: 'Menu' }).tap();
        await nav.getByText('Admin', { exact: true }).tap();
        await nav.getByRole('link', { name: 'Status' }).tap();
        await page.getByRole('heading', { name: 'Server status' }).waitFor();
        await page.getByRole('table', { name: 'Indexers' }).waitFor();
        await look(page, 'status');
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
