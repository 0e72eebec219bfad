import * as fs from 'node:fs';
import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, keepScreenshot, runQuery, signIn, tableRows, Watched, withPage } from './harness';

const STATUSES = ['200', '200', '200', '404', '500'];
const TABLE_QUERY = 'tag=web kv status | count by status | table status count';
const CHART_QUERY = 'tag=web kv status | stats count by status over 5m | chart count by status';
const CARD_QUERY = 'tag=web count | numbercard count';
const TABLE_ROWS = [
  ['200', '360'],
  ['404', '120'],
  ['500', '120'],
];
const PASS = 'dashboard-password-1';

interface StoredTile {
  title: string;
  renderer: string;
  span: { col: number; row: number; x: number; y: number };
  searchesIndex: number;
  rendererOptions: Record<string, unknown>;
}
interface StoredDashboard {
  ID: number;
  GUID: string;
  Name: string;
  GIDs: number[] | null;
  Data: { version: number; searches: Array<{ query: string }>; tiles: StoredTile[]; timeframe: unknown };
}

/** Dashboards as people use them: built from searches, arranged, saved, shared, edited by two at once. */
describe('console dashboards (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let owner: { uid: number; headers: Record<string, string> };
  let opsGid: number;
  let dashboardId: number;

  beforeAll(async () => {
    await h.start();
    owner = await h.createUser('owner', PASS);
    const colleague = await h.createUser('colleague', PASS);
    await h.createUser('stranger', PASS);
    const res = await h.svc.request('POST', '/api/groups', { headers: h.admin, json: { Name: 'ops', Desc: 'operations' } });
    opsGid = res.body as number;
    for (const uid of [owner.uid, colleague.uid]) expect((await h.svc.request('POST', `/api/users/${uid}/group`, { headers: h.admin, json: { GIDs: [opsGid] } })).status).toBe(200);
    // 600 web entries over the last 50 minutes: 360 answered 200, 120 404, 120 500.
    await h.ingest(
      owner.headers,
      'web',
      Array.from({ length: 600 }, (_, i) => ({ data: `method=GET path=/p${i % 7} status=${STATUSES[i % 5]} bytes=${100 + i}`, ageMs: i * 5000 + 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the dashboards:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, user: string, where = '/search'): Promise<void> {
    await w.page.goto(where);
    await signIn(w.page, user, PASS);
    await w.page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  const stored = async (id = dashboardId): Promise<StoredDashboard> => (await h.svc.request('GET', `/api/dashboards/${id}`, { headers: owner.headers })).body as StoredDashboard;
  const tile = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

  /** The cells of each body row of the results table in a tile. */
  async function tileRows(page: Page, name: string): Promise<string[][]> {
    const out: string[][] = [];
    for (const row of await tile(page, name).getByRole('table', { name: 'Results', exact: true }).getByRole('row').all()) {
      const cells = await row.getByRole('cell').allInnerTexts();
      if (cells.length) out.push(cells.map((c) => c.trim()));
    }
    return out;
  }

  /** The three tiles answer as their searches do. */
  async function expectAnswers(page: Page, names = { table: 'Requests by status', chart: 'Status over time', card: 'All requests' }): Promise<void> {
    await eventually(async () => expect(await tileRows(page, names.table)).toEqual(TABLE_ROWS), 30000);
    await tile(page, names.chart)
      .getByRole('img', { name: /^Bar chart of 200, 404, 500 over \d+ time points$/ })
      .waitFor({ timeout: 30000 });
    await tile(page, names.card).getByRole('listitem', { name: 'count: 600' }).waitFor({ timeout: 30000 });
  }

  async function addToDashboard(page: Page, dashboard: string, title: string): Promise<void> {
    await page.getByRole('button', { name: 'Add to dashboard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to dashboard' });
    const select = dialog.getByRole('combobox', { name: 'Dashboard' });
    await eventually(async () => expect(await select.isEnabled()).toBe(true));
    if (dashboard === 'new') {
      await select.selectOption({ label: 'New dashboard…' });
      await dialog.getByLabel('Name of the new dashboard').fill('Web overview');
    } else await select.selectOption({ label: dashboard });
    await dialog.getByLabel('Tile title').fill(title);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('toolbar', { name: 'Search actions' }).getByText('Added to Web overview.').waitFor();
  }

  /** Drags from the middle of `from` by (dx, dy) pixels, in small steps as a hand does. */
  async function drag(page: Page, box: { x: number; y: number; width: number; height: number }, dx: number, dy: number): Promise<void> {
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(x + (dx * i) / 12, y + (dy * i) / 12);
    await page.mouse.up();
  }

  it('builds a dashboard of three tiles from searches, moves and resizes one, saves, and finds it the same after a reload', () =>
    withPage(h, 'dashboard-build', async (w) => {
      const { page } = w;
      await open(w, 'owner');
      await runQuery(page, TABLE_QUERY);
      await eventually(async () => expect(await tableRows(page, 'Results')).toEqual(TABLE_ROWS), 30000);
      await addToDashboard(page, 'new', 'Requests by status');

      await runQuery(page, CHART_QUERY);
      await page.getByRole('img', { name: /^Line chart of 200, 404, 500/ }).waitFor();
      await page.getByLabel('Chart type').selectOption('bar');
      await addToDashboard(page, 'Web overview', 'Status over time');

      await runQuery(page, CARD_QUERY);
      await page.getByRole('list', { name: 'Number cards' }).getByRole('listitem', { name: 'count: 600' }).waitFor();
      await addToDashboard(page, 'Web overview', 'All requests');

      const list = (await h.svc.request('GET', '/api/dashboards', { headers: owner.headers })).body as StoredDashboard[];
      expect(list.map((d) => d.Name)).toEqual(['Web overview']);
      dashboardId = list[0].ID;
      const first = await stored();
      expect(first.Data.version).toBe(2);
      expect(first.Data.searches.map((s) => s.query)).toEqual([TABLE_QUERY, CHART_QUERY, CARD_QUERY]);
      expect(first.Data.tiles.map((t) => [t.title, t.renderer, t.searchesIndex, t.span])).toEqual([
        ['Requests by status', 'table', 0, { col: 8, row: 7, x: 0, y: 0 }],
        ['Status over time', 'bar', 1, { col: 8, row: 7, x: 8, y: 0 }],
        ['All requests', 'numbercard', 2, { col: 8, row: 7, x: 0, y: 7 }],
      ]);

      // Open it from the note on the search page.
      await page.getByRole('link', { name: 'Web overview' }).click();
      await page.getByRole('heading', { name: 'Web overview', level: 1 }).waitFor();
      await expectAnswers(page);

      await page.setViewportSize({ width: 1280, height: 1100 }); // the third tile starts below the fold of 860
      // Make "All requests" a strip as wide as the grid and half as tall, then move it to the top:
      // the other two make room below it.
      const a = (await tile(page, 'Requests by status').boundingBox())!;
      const b = (await tile(page, 'Status over time').boundingBox())!;
      const colStep = (b.x - a.x) / 8; // a column and its gutter
      const rowStep = (a.height + 12) / 7; // a row and its gutter
      const handle = tile(page, 'All requests').locator('xpath=..').getByTitle('Drag to resize the tile');
      await drag(page, (await handle.boundingBox())!, 8 * colStep, -4 * rowStep);
      await page.getByRole('status').filter({ hasText: 'Unsaved changes.' }).waitFor();
      await page.waitForTimeout(300);
      await drag(page, (await tile(page, 'All requests').getByRole('heading', { name: 'All requests' }).boundingBox())!, 0, -7 * rowStep - 20);
      await eventually(async () => expect((await tile(page, 'All requests').boundingBox())!.y).toBeLessThan(a.y + 5));
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved at / })
        .waitFor();
      const saved = await stored();
      expect(saved.Data.tiles.map((t) => [t.title, t.span])).toEqual([
        ['Requests by status', { col: 8, row: 7, x: 0, y: 3 }],
        ['Status over time', { col: 8, row: 7, x: 8, y: 3 }],
        ['All requests', { col: 16, row: 3, x: 0, y: 0 }],
      ]);
      expect(saved.Data.tiles[1].rendererOptions).toEqual({});
      expect(saved.Data.version).toBe(2);
      const boxes = async () => Promise.all(['Requests by status', 'Status over time', 'All requests'].map(async (n) => (await tile(page, n).boundingBox())!));
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.waitForTimeout(400); // the grid animates tiles into place
      const before = await boxes();

      await page.reload();
      await page.getByRole('heading', { name: 'Web overview', level: 1 }).waitFor();
      await expectAnswers(page);
      await eventually(async () => {
        const after = await boxes();
        for (let i = 0; i < 3; i++) for (const k of ['x', 'y', 'width', 'height'] as const) expect([i, k, Math.abs(after[i][k] - before[i][k]) <= 1]).toEqual([i, k, true]);
      });
      await page.waitForTimeout(700); // let the charts paint before the picture
      const shot = await keepScreenshot(page, 'dashboard');
      shots.push(shot); // docs/console-dashboard.png is a copy of this picture, made by hand: tests never write tracked files
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('lists, filters, clones, exports, imports and deletes dashboards; shares one with a group whose member opens it, while a stranger cannot', async () => {
    await withPage(h, 'dashboards-list', async (w) => {
      const { page } = w;
      const made = await h.svc.request('POST', '/api/dashboards', {
        headers: owner.headers,
        json: { Name: 'DNS', Description: 'name lookups', Labels: ['dns', 'net'], GIDs: [], Data: {} },
      });
      expect(made.status).toBe(200);
      await h.svc.request('PUT', `/api/dashboards/${dashboardId}`, { headers: owner.headers, json: { ...(await stored()), Labels: ['web'] } });
      await open(w, 'owner', '/dashboards');
      await page.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor();
      const names = async () => page.getByRole('table', { name: 'Dashboards' }).getByRole('rowheader').allInnerTexts();
      await eventually(async () => expect(await names()).toEqual(['DNS\nname lookups', 'Web overview']));
      await page.getByRole('searchbox', { name: 'Search dashboards' }).fill('lookups');
      await eventually(async () => expect(await names()).toEqual(['DNS\nname lookups']));
      await page.getByRole('searchbox', { name: 'Search dashboards' }).fill('');
      await page.getByRole('button', { name: 'Show dashboards labelled web' }).click();
      await eventually(async () => expect(await names()).toEqual(['Web overview']));
      await page.getByRole('combobox', { name: 'Label' }).selectOption('');
      shots.push(await keepScreenshot(page, 'dashboards-list'));

      // Export, then import the file back as a new dashboard.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Web overview' }).click()]);
      expect(download.suggestedFilename()).toBe('web-overview.dashboard.json');
      const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as { Name: string; Data: unknown };
      expect(exported).toEqual({ Name: 'Web overview', Description: '', Labels: ['web'], GUID: (await stored()).GUID, Data: (await stored()).Data });
      await page
        .getByLabel('Import from JSON')
        .setInputFiles({ name: 'web.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...exported, Name: 'Imported web' })) });
      await page
        .getByRole('status')
        .filter({ hasText: /^Imported “Imported web” \(ID \d+\)\.$/ })
        .waitFor();
      await page.getByLabel('Import from JSON').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"Name": ') });
      await page
        .getByRole('status')
        .filter({ hasText: /^Failed: The file is not JSON/ })
        .waitFor();

      // Clone, then delete the clone and the import after confirming.
      await page.getByRole('button', { name: 'Clone DNS' }).click();
      await eventually(async () => expect(await names()).toEqual(['Copy of DNS\nname lookups', 'DNS\nname lookups', 'Imported web', 'Web overview']));
      for (const name of ['Copy of DNS', 'Imported web']) {
        await page.getByRole('button', { name: `Delete ${name}` }).click();
        const confirm = page.getByRole('dialog', { name: 'Delete dashboard' });
        await confirm.getByRole('button', { name: 'Delete' }).click();
        await confirm.waitFor({ state: 'detached' });
      }
      await eventually(async () => expect(await names()).toEqual(['DNS\nname lookups', 'Web overview']));
      const imported = ((await h.svc.request('GET', '/api/dashboards', { headers: owner.headers })).body as StoredDashboard[]).map((d) => d.Name);
      expect(imported.sort()).toEqual(['DNS', 'Web overview']);

      // Share with the group; no "global" for someone who is not an administrator.
      await page.getByRole('button', { name: 'Share Web overview' }).click();
      const share = page.getByRole('dialog', { name: 'Share “Web overview”' });
      await share.getByRole('checkbox', { name: 'ops' }).waitFor();
      expect(await share.getByRole('checkbox').count()).toBe(1);
      await share.getByRole('checkbox', { name: 'ops' }).check();
      await share.getByRole('button', { name: 'Save' }).click();
      await share.waitFor({ state: 'detached' });
      await eventually(async () => expect((await tableRows(page, 'Dashboards')).find((r) => r.includes('ops'))).toBeDefined());
      expect((await stored()).GIDs).toEqual([opsGid]);
      expect(await h.problemsOf(w)).toEqual([]);
    });

    await withPage(h, 'dashboard-member', async (w) => {
      const { page } = w;
      await open(w, 'colleague', '/dashboards');
      await page.getByRole('link', { name: 'Web overview' }).click();
      await page.getByRole('heading', { name: 'Web overview', level: 1 }).waitFor();
      await expectAnswers(page);
      // A reader: nothing to save, no tile to move or remove.
      expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Remove All requests' }).count()).toBe(0);
      expect(await h.problemsOf(w)).toEqual([]);
    });

    await withPage(h, 'dashboard-stranger', async (w) => {
      const { page } = w;
      await open(w, 'stranger', `/dashboards/${dashboardId}`);
      expect(await page.getByRole('alert').innerText()).toBe('This dashboard does not exist, or it is not shared with you. Ask its owner to share it with one of your groups.');
      await page.getByRole('link', { name: 'All dashboards' }).click();
      await page.getByText('No dashboards yet.', { exact: false }).waitFor();
      expect(await h.problemsOf(w)).toEqual([]);
    });
  });

  it('two people edit the same dashboard: the second save gets the conflict message, and Reload shows the first one’s work', async () => {
    const one = await h.page();
    const two = await h.page();
    try {
      for (const w of [one, two]) {
        await open(w, 'owner', `/dashboards/${dashboardId}`);
        await tile(w.page, 'All requests').getByRole('listitem', { name: 'count: 600' }).waitFor({ timeout: 30000 });
      }
      // The first renames a tile and makes its chart stacked, and saves.
      await tile(one.page, 'Status over time').getByRole('button', { name: 'Tile settings of Status over time' }).click();
      const settings = one.page.getByRole('dialog', { name: 'Tile settings' });
      await settings.getByLabel('Title').fill('Statuses');
      await settings.getByLabel('Stacked').check();
      await settings.getByRole('button', { name: 'Apply' }).click();
      await tile(one.page, 'Statuses').waitFor();
      await one.page.getByRole('button', { name: 'Save' }).click();
      await one.page
        .getByRole('status')
        .filter({ hasText: /^Saved at / })
        .waitFor();

      // The second, who opened it before that, removes a tile and saves: asked first.
      await tile(two.page, 'All requests').getByRole('button', { name: 'Remove All requests' }).click();
      await two.page.getByRole('dialog', { name: 'Remove tile' }).getByRole('button', { name: 'Remove' }).click();
      await eventually(async () => expect(await tile(two.page, 'All requests').count()).toBe(0));
      await two.page.getByRole('button', { name: 'Save' }).click();
      const conflict = two.page.getByRole('dialog', { name: 'Someone else saved this dashboard' });
      await conflict.waitFor();
      expect(await conflict.getByRole('button').allInnerTexts()).toEqual(['Cancel', 'Reload', 'Overwrite']);
      shots.push(await keepScreenshot(two.page, 'dashboard-conflict'));
      // Nothing of the second was saved.
      let now = await stored();
      expect(now.Data.tiles.map((t) => t.title)).toEqual(['Requests by status', 'Statuses', 'All requests']);
      expect(now.Data.tiles[1].rendererOptions).toEqual({ Stack: 'stacked' });

      await conflict.getByRole('button', { name: 'Reload' }).click();
      await two.page.getByRole('status').filter({ hasText: 'Reloaded: this is the version saved last.' }).waitFor();
      await tile(two.page, 'Statuses').waitFor();
      await tile(two.page, 'All requests').getByRole('listitem', { name: 'count: 600' }).waitFor({ timeout: 30000 });
      expect(await two.page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

      // After the reload, the second's change saves.
      await tile(two.page, 'All requests').getByRole('button', { name: 'Remove All requests' }).click();
      await two.page.getByRole('dialog', { name: 'Remove tile' }).getByRole('button', { name: 'Remove' }).click();
      await two.page.getByRole('button', { name: 'Save' }).click();
      await two.page
        .getByRole('status')
        .filter({ hasText: /^Saved at / })
        .waitFor();
      now = await stored();
      expect(now.Data.tiles.map((t) => t.title)).toEqual(['Requests by status', 'Statuses']);
      for (const w of [one, two]) expect(await h.problemsOf(w)).toEqual([]);
    } finally {
      await one.page.context().close();
      await two.page.context().close();
    }
  });

  it("draws a dashboard made through the API in the product's Data layout, and says what it cannot draw", () =>
    withPage(h, 'dashboard-product-layout', async (w) => {
      const { page } = w;
      const lib = await h.svc.request('POST', '/api/library', { headers: owner.headers, json: { Name: 'Statuses', Query: TABLE_QUERY } });
      expect(lib.status).toBe(200);
      const libGuid = (lib.body as { GUID: string }).GUID;
      const hour = { durationString: 'PT1H', timeframe: 'PT1H', start: null, end: null };
      const data = {
        version: 2,
        lastDataUpdate: '2020-09-22T09:17:06-06:00',
        linkZooming: true,
        liveUpdateInterval: 5,
        grid: { gutter: '10', margin: 4 },
        timeframe: hour,
        searches: [
          { alias: 'Search 1', timeframe: {}, query: CARD_QUERY, searchID: 4780372388 },
          { alias: 'From the library', reference: { id: libGuid, type: 'savedQuery' } },
          { alias: 'Own range', timeframe: hour, query: CHART_QUERY },
          { alias: 'A template', reference: { id: '0b9e4a4e-3f0a-4c43-9c55-1a2b3c4d5e6f', type: 'template', extras: { defaultValue: null } } },
        ],
        tiles: [
          { id: 16007878262310, title: 'Total', renderer: 'numbercard', span: { col: 4, row: 4, x: 0, y: 0 }, searchesIndex: 0, rendererOptions: {} },
          { id: 2, title: 'Library table', renderer: 'table', span: { col: 6, row: 5, x: 4, y: 0 }, searchesIndex: 1, rendererOptions: {} },
          { id: 3, title: 'Area', renderer: 'area', span: { col: 6, row: 5, x: 10, y: 0 }, searchesIndex: 2, rendererOptions: { Stack: 'stacked' } },
          { id: 4, title: 'Same total', renderer: 'numbercard', span: { col: 4, row: 4, x: 0, y: 4 }, searchesIndex: 0, rendererOptions: {} },
          { id: 5, title: 'Lost', renderer: 'text', span: { col: 4, row: 3, x: 4, y: 5 }, searchesIndex: 9, rendererOptions: {} },
          { id: 6, title: 'Templated', renderer: 'text', span: { col: 4, row: 3, x: 8, y: 5 }, searchesIndex: 3, rendererOptions: {} },
        ],
      };
      const id = (
        await h.svc.request('POST', '/api/dashboards', { headers: owner.headers, json: { Name: 'From the API', Description: 'Made by the product', GIDs: [], Data: data } })
      ).body as number;
      const launches: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/searchctrl/launch')) launches.push((r.postDataJSON() as { SearchString: string }).SearchString);
      });
      await open(w, 'owner', `/dashboards/${(await stored(id)).GUID}`);
      await page.getByRole('heading', { name: 'From the API', level: 1 }).waitFor();
      for (const name of ['Total', 'Same total']) await tile(page, name).getByRole('listitem', { name: 'count: 600' }).waitFor({ timeout: 30000 });
      await eventually(async () => expect(await tileRows(page, 'Library table')).toEqual(TABLE_ROWS), 30000);
      await tile(page, 'Area')
        .getByRole('img', { name: /^Area chart of 200, 404, 500/ })
        .waitFor({ timeout: 30000 });
      expect(await tile(page, 'Lost').getByRole('alert').innerText()).toBe('This tile shows search 10, which the dashboard does not have (it has 4).');
      // A template it cannot read (none has that GUID here): the tile says so; the others run.
      await eventually(async () =>
        expect(await tile(page, 'Templated').getByRole('alert').innerText()).toBe(
          'The template this search runs (0b9e4a4e-3f0a-4c43-9c55-1a2b3c4d5e6f) cannot be run: Template not found',
        ),
      );
      // The search two tiles show ran once; the library's query ran for its reference.
      expect(launches.slice(0, 3).sort()).toEqual([CARD_QUERY, CHART_QUERY, TABLE_QUERY].sort());
      // Live update every 5 s: all three run again, the tiles keep their answers meanwhile; then pause.
      await eventually(async () => expect(launches.length).toBeGreaterThanOrEqual(6), 15000);
      expect(launches.slice(3, 6).sort()).toEqual([CARD_QUERY, CHART_QUERY, TABLE_QUERY].sort());
      await page.getByRole('button', { name: 'Pause live update' }).click();
      expect(await page.getByRole('button', { name: 'Resume live update' }).getAttribute('aria-pressed')).toBe('true');
      await tile(page, 'Total').getByRole('listitem', { name: 'count: 600' }).waitFor({ timeout: 30000 });
      await page.waitForTimeout(500);
      shots.push(await keepScreenshot(page, 'dashboard-product-layout'));
      const paused = launches.length;
      await page.waitForTimeout(5500);
      expect(launches.length).toBe(paused);

      // linkZooming: dragging across one chart runs every tile over the range selected.
      const launched = launches.length;
      const chart = tile(page, 'Area').getByRole('img', { name: /^Area chart/ });
      const box = (await chart.boundingBox())!;
      const y = box.y + box.height * 0.5;
      await page.mouse.move(box.x + box.width * 0.3, y);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.45, y, { steps: 8 });
      await page.mouse.move(box.x + box.width * 0.6, y, { steps: 8 });
      await page.mouse.up();
      const picker = page.getByRole('button', { name: /^Time range: / });
      await eventually(async () => expect(await picker.getAttribute('aria-label')).toMatch(/^Time range: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d to /));
      await eventually(async () => expect(launches.length).toBe(launched + 3));
      const zoomedCount = async () => Number(((await tile(page, 'Total').getByRole('listitem').getAttribute('aria-label')) ?? '').replace(/^count: /, '').replace(/,/g, ''));
      await eventually(async () => expect(await zoomedCount()).toBeLessThan(600), 30000);
      expect(await zoomedCount()).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Reset time' }).click();
      await eventually(async () => expect(await picker.getAttribute('aria-label')).toBe('Time range: Last hour'));
      await tile(page, 'Total').getByRole('listitem', { name: 'count: 600' }).waitFor({ timeout: 30000 });

      // Data it cannot draw at all: a clear message, the page still works.
      const junk = (await h.svc.request('POST', '/api/dashboards', { headers: owner.headers, json: { Name: 'Junk', GIDs: [], Data: '"just text"' } })).body as number;
      await page.goto(`/dashboards/${junk}`);
      await page.getByRole('heading', { name: 'Junk', level: 1 }).waitFor();
      expect(await page.getByRole('alert').innerText()).toContain("This dashboard cannot be drawn. The dashboard's Data is a string, not an object with searches and tiles.");
      await page.goto('/dashboards/not-a-dashboard');
      expect(await page.getByRole('alert').innerText()).toBe('“not-a-dashboard” is not a dashboard ID or GUID.');
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('adds a tile on the dashboard itself, sizes it without a mouse, and asks before leaving unsaved changes', () =>
    withPage(h, 'dashboard-add-tile', async (w) => {
      const { page } = w;
      await open(w, 'owner', `/dashboards/${dashboardId}`);
      await page.getByRole('heading', { name: 'Web overview', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Add tile' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a tile' });
      await dialog.getByLabel('Title').fill('Server errors');
      await dialog.getByRole('textbox', { name: 'Query' }).fill('tag=web grep "status=500" | count | nosuchrenderer');
      await dialog.getByRole('button', { name: 'Add tile' }).click();
      await eventually(async () => expect(await dialog.getByRole('alert').innerText()).toMatch(/^The query has an error: /));
      await dialog.getByRole('textbox', { name: 'Query' }).fill('tag=web grep "status=500" | count | numbercard count');
      await dialog.getByRole('button', { name: 'Add tile' }).click();
      await dialog.waitFor({ state: 'detached' });
      await tile(page, 'Server errors').getByRole('listitem', { name: 'count: 120' }).waitFor({ timeout: 30000 });

      // Size from the tile's settings (no dragging needed).
      await tile(page, 'Server errors').getByRole('button', { name: 'Tile settings of Server errors' }).click();
      const settings = page.getByRole('dialog', { name: 'Tile settings' });
      await settings.getByLabel('Width (of 16 columns)').fill('4');
      await settings.getByLabel('Height (rows)').fill('3');
      await settings.getByRole('button', { name: 'Apply' }).click();

      // Leaving asks first; staying keeps the changes.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library', exact: true }).click();
      const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
      await leave.getByRole('button', { name: 'Cancel' }).click();
      await leave.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe(`/dashboards/${dashboardId}`);
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved at / })
        .waitFor();
      const saved = await stored();
      const added = saved.Data.tiles.find((t) => t.title === 'Server errors')!;
      expect([added.renderer, added.span.col, added.span.row, saved.Data.searches[added.searchesIndex].query]).toEqual([
        'numbercard',
        4,
        3,
        'tag=web grep "status=500" | count | numbercard count',
      ]);
      // Saved: nothing to ask.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library', exact: true }).click();
      await page.getByRole('heading', { name: 'Query library' }).waitFor();

      // With unsaved changes again, "Leave" leaves and drops them.
      await page.goBack();
      await tile(page, 'Server errors').getByRole('button', { name: 'Remove Server errors' }).click();
      await page.getByRole('dialog', { name: 'Remove tile' }).getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library', exact: true }).click();
      await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave' }).click();
      await page.getByRole('heading', { name: 'Query library' }).waitFor();
      expect((await stored()).Data.tiles.map((t) => t.title)).toContain('Server errors');
      expect(await h.problemsOf(w)).toEqual([]);
    }));
  it('says when a save, an overwrite or a reload fails, and keeps the changes', () =>
    withPage(h, 'dashboard-failures', async (w) => {
      const { page } = w;
      await open(w, 'owner', `/dashboards/${dashboardId}`);
      await page.getByRole('heading', { name: 'Web overview', level: 1 }).waitFor();
      await tile(page, 'Server errors').getByRole('listitem').waitFor({ timeout: 30000 });
      const one = `**/api/dashboards/${dashboardId}`;
      const refuse = (status: number, error: string) => ({ status, contentType: 'application/json', body: JSON.stringify({ Error: error }) });
      const unsaved = page.getByRole('status').filter({ hasText: 'Unsaved changes.' });

      // The service refuses the save: the alert says why, whatever else the status line says.
      await page.route(one, (r) => (r.request().method() === 'PUT' ? r.fulfill(refuse(403, 'You may not change this dashboard.')) : r.fallback()));
      await tile(page, 'Server errors').getByRole('button', { name: 'Remove Server errors' }).click();
      await page.getByRole('dialog', { name: 'Remove tile' }).getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      const alert = page.getByRole('alert').filter({ hasText: /^Not (saved|reloaded): / });
      await eventually(async () => expect(await alert.innerText()).toBe('Not saved: You may not change this dashboard.'));
      await unsaved.waitFor();
      shots.push(await keepScreenshot(page, 'dashboard-save-failed'));
      await page.unroute(one);

      // Someone saves meanwhile; Overwrite in the conflict dialog is refused: said on the page too.
      expect((await h.svc.request('PUT', `/api/dashboards/${dashboardId}`, { headers: owner.headers, json: await stored() })).status).toBe(200);
      await page.route(one, (r) => (r.request().method() === 'PUT' && !r.request().headers()['if-match'] ? r.fulfill(refuse(400, 'The dashboard is too large.')) : r.fallback()));
      await page.getByRole('button', { name: 'Save' }).click();
      const conflict = page.getByRole('dialog', { name: 'Someone else saved this dashboard' });
      await conflict.getByRole('button', { name: 'Overwrite' }).click();
      await conflict.waitFor({ state: 'detached' });
      await eventually(async () => expect(await alert.innerText()).toBe('Not saved: The dashboard is too large.'));
      await unsaved.waitFor();
      await page.unroute(one);

      // Discarding needs the dashboard again, which cannot be read: the page and the changes stay.
      await page.route(one, (r) => (r.request().method() === 'GET' ? r.fulfill(refuse(500, 'The database is away.')) : r.fallback()));
      await page.getByRole('button', { name: 'Discard changes' }).click();
      await eventually(async () => expect(await alert.innerText()).toBe('Not reloaded: The dashboard could not be read: The database is away.'));
      await unsaved.waitFor();
      await page.getByRole('heading', { name: 'Web overview', level: 1 }).waitFor();
      expect(await tile(page, 'Server errors').count()).toBe(0);
      await page.unroute(one);

      // The service answers again: the save goes through and the alert goes.
      await page.getByRole('button', { name: 'Save' }).click();
      await conflict.getByRole('button', { name: 'Overwrite' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved at / })
        .waitFor();
      expect(await alert.count()).toBe(0);
      expect((await stored()).Data.tiles.map((t) => t.title)).not.toContain('Server errors');
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('drops a late answer for the dashboard left, and shows nothing of it while the next one loads', () =>
    withPage(h, 'dashboard-late-answer', async (w) => {
      const { page } = w;
      await open(w, 'owner', `/dashboards/${dashboardId}`);
      await page.getByRole('heading', { name: 'Web overview', level: 1 }).waitFor();
      // Off to another dashboard whose answer is slow, and straight back: the late answer is dropped.
      const slow = (
        await h.svc.request('POST', '/api/dashboards', { headers: owner.headers, json: { Name: 'Slow to answer', GIDs: [], Data: { version: 2, searches: [], tiles: [] } } })
      ).body as number;
      await page.route(`**/api/dashboards/${slow}`, async (r) => {
        await new Promise((done) => setTimeout(done, 1500));
        await r.fallback();
      });
      const asked = page.waitForRequest((r) => new URL(r.url()).pathname === `/api/dashboards/${slow}`);
      await page.evaluate((to) => {
        history.pushState(null, '', to);
        dispatchEvent(new PopStateEvent('popstate'));
      }, `/dashboards/${slow}`);
      await asked;
      // Nothing of the dashboard left stays on the page while the next loads.
      const loading = await page.getByText('Loading the dashboard…').isVisible();
      const headings = await page.getByRole('heading', { level: 1 }).allInnerTexts();
      await page.evaluate(() => history.back());
      await page.getByRole('heading', { name: 'Web overview', level: 1 }).waitFor();
      await page.waitForTimeout(2000);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Web overview');
      expect(new URL(page.url()).pathname).toBe(`/dashboards/${dashboardId}`);
      expect([loading, headings]).toEqual([true, []]);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it("shows a dashboard of the product's older client (Data version 1) as it reads, but read-only", () =>
    withPage(h, 'dashboard-version-1', async (w) => {
      const { page } = w;
      const old = (
        await h.svc.request('POST', '/api/dashboards', {
          headers: owner.headers,
          json: {
            Name: 'Old client',
            GIDs: [],
            Data: {
              version: 1,
              timeframe: { durationString: 'PT1H', timeframe: 'PT1H', start: null, end: null },
              searches: [{ alias: null, timeframe: {}, query: CARD_QUERY }],
              tiles: [{ id: 1, title: 'Old total', renderer: 'numbercard', span: { col: 4, row: 4, x: 0, y: 0 }, searchesIndex: 0, rendererOptions: {} }],
            },
          },
        })
      ).body as number;
      await open(w, 'owner', `/dashboards/${old}`);
      await page.getByRole('heading', { name: 'Old client', level: 1 }).waitFor();
      await tile(page, 'Old total')
        .getByRole('listitem', { name: /^count: \d/ })
        .waitFor({ timeout: 30000 });
      expect(await page.getByRole('note').innerText()).toBe(
        'This dashboard was made by an older client (version 1); the console edits version 2 dashboards only, so it is shown read-only.',
      );
      for (const name of ['Save', 'Add tile', 'Settings', 'Remove Old total', 'Tile settings of Old total'])
        expect([name, await page.getByRole('button', { name }).count()]).toEqual([name, 0]);
      expect((await stored(old)).Data.version).toBe(1);
      shots.push(await keepScreenshot(page, 'dashboard-version-1'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
