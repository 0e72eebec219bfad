import { Page } from 'playwright-core';
import { fileForm } from '../faults/service';
import { ConsoleHarness, eventually, keepScreenshot, PHONE, signIn, Watched, withPage } from './harness';
import { expectNoSidewaysScroll } from './touch';

const PASS = 'side-effects-password-1';
const STATUSES = ['200', '200', '200', '404', '500'];
/** A tile that replaces the resource "hosts" of whoever runs it. */
const SAVES = 'tag=web kv status | count by status | table -save hosts status count';
const COUNTS = 'tag=web count | numbercard count';
const MINE = 'host,owner\nweb1,me\n';
const EFFECT = 'writes the table to the resource "hosts", replacing its contents';

interface Resource {
  GUID: string;
  ResourceName: string;
  VersionNumber: number;
}

/**
 * Queries written by someone else (issue 32, item 2): a shared dashboard runs its author's tile
 * queries as the viewer, and a link can run a query the person never typed. Neither may change
 * the person's data before they say so.
 */
describe('queries with side effects that the person did not write (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let author: { uid: number; headers: Record<string, string> };
  let viewer: { uid: number; headers: Record<string, string> };
  let hostsGuid: string;
  let dashboardId: number;

  const hostsOf = async (headers: Record<string, string>): Promise<Resource | undefined> =>
    ((await h.svc.request('GET', '/api/resources', { headers })).body as Resource[]).find((r) => r.ResourceName === 'hosts');
  const viewersHosts = async (): Promise<string> => (await h.svc.request('GET', `/api/resources/${hostsGuid}/raw`, { headers: viewer.headers })).text;

  beforeAll(async () => {
    await h.start();
    author = await h.createUser('author', PASS);
    viewer = await h.createUser('viewer', PASS);
    const gid = (await h.svc.request('POST', '/api/groups', { headers: h.admin, json: { Name: 'ops', Desc: 'operations' } })).body as number;
    for (const u of [author, viewer]) expect((await h.svc.request('POST', `/api/users/${u.uid}/group`, { headers: h.admin, json: { GIDs: [gid] } })).status).toBe(200);
    await h.ingest(
      author.headers,
      'web',
      Array.from({ length: 100 }, (_, i) => ({ data: `method=GET path=/p${i % 7} status=${STATUSES[i % 5]}`, ageMs: i * 20_000 + 1000 })),
    );
    // The viewer's own private table, which the author's tile would replace.
    const made = await h.svc.request('POST', '/api/resources', { headers: viewer.headers, json: { ResourceName: 'hosts', Description: 'my hosts', GroupACL: [], Global: false } });
    expect(made.status).toBe(200);
    hostsGuid = (made.body as Resource).GUID;
    expect((await h.svc.request('PUT', `/api/resources/${hostsGuid}/raw`, { headers: viewer.headers, body: fileForm(Buffer.from(MINE), 'hosts.csv') })).status).toBe(200);
    const dashboard = await h.svc.request('POST', '/api/dashboards', {
      headers: author.headers,
      json: {
        Name: 'Status report',
        Description: 'shared with ops',
        GIDs: [gid],
        Data: {
          liveUpdateInterval: 5,
          searches: [
            { alias: null, query: SAVES },
            { alias: null, query: COUNTS },
          ],
          tiles: [
            { id: 1, title: 'Saved statuses', renderer: 'table', span: { col: 8, row: 8, x: 0, y: 0 }, searchesIndex: 0, rendererOptions: {} },
            { id: 2, title: 'All requests', renderer: 'numbercard', span: { col: 8, row: 8, x: 8, y: 0 }, searchesIndex: 1, rendererOptions: {} },
          ],
        },
      },
    });
    expect(dashboard.status).toBe(200);
    dashboardId = dashboard.body as number;
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of queries with side effects:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, user: string, where: string): Promise<void> {
    await w.page.goto(where);
    await signIn(w.page, user, PASS);
    await w.page.getByRole('banner').waitFor();
  }

  const tile = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

  /** The status counts of a results table, as "status count" lines. */
  async function resultRows(where: ReturnType<Page['getByRole']> | Page): Promise<string[]> {
    const out: string[] = [];
    for (const row of await where.getByRole('table', { name: 'Results', exact: true }).getByRole('row').all()) {
      const cells = await row.getByRole('cell').allInnerTexts();
      if (cells.length) out.push(cells.map((c) => c.trim()).join(' '));
    }
    return out.sort();
  }
  const COUNTED = ['200 60', '404 20', '500 20'];
  const SAVED = `status,count\n${COUNTED.map((l) => l.replace(' ', ',')).join('\n')}\n`;

  it("asks the viewer of someone else's dashboard before a tile writes their resource; Run it anyway writes it, and live updates do not ask again", () =>
    withPage(h, 'side-effects-dashboard', async (w) => {
      const { page } = w;
      await open(w, 'viewer', `/dashboards/${dashboardId}`);
      const saving = tile(page, 'Saved statuses');
      await saving.getByText(EFFECT).waitFor();
      const run = saving.getByRole('button', { name: 'Run it anyway' });
      await run.waitFor();
      // The other tile runs as usual.
      await eventually(async () => expect((await tile(page, 'All requests').innerText()).split('\n')).toContain('100'));
      expect(await saving.innerText()).toMatch(/Someone else wrote this query\./);
      shots.push(await keepScreenshot(page, 'side-effects-tile'));
      expect(await viewersHosts()).toBe(MINE);

      // Nothing changes until the viewer says so: not at a live update, nor on Refresh.
      const status = page.getByRole('status').filter({ hasText: /^Ran at / });
      const ranAt = await status.innerText();
      expect(ranAt).toMatch(/updates every 5 s/);
      await eventually(async () => expect(await status.innerText()).not.toBe(ranAt), 30000);
      expect(await saving.getByRole('button', { name: 'Run it anyway' }).isVisible()).toBe(true);
      expect(await viewersHosts()).toBe(MINE);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await saving.getByRole('button', { name: 'Run it anyway' }).waitFor();
      expect(await viewersHosts()).toBe(MINE);

      await run.click();
      await eventually(async () => expect(await resultRows(saving)).toEqual(COUNTED), 30000);
      expect(await saving.getByRole('button', { name: 'Run it anyway' }).count()).toBe(0);
      await eventually(async () => expect(await viewersHosts()).toBe(SAVED));
      const version = (await hostsOf(viewer.headers))!.VersionNumber;
      shots.push(await keepScreenshot(page, 'side-effects-tile-confirmed'));

      // Remembered while the page is open: the next live update runs it again without asking.
      await eventually(async () => expect((await hostsOf(viewer.headers))!.VersionNumber).toBeGreaterThan(version), 30000);
      expect(await saving.getByRole('button', { name: 'Run it anyway' }).count()).toBe(0);
      await eventually(async () => expect(await resultRows(saving)).toEqual(COUNTED));
      // The author's own resources were not touched.
      expect(await hostsOf(author.headers)).toBeUndefined();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('runs the author’s own dashboard without asking', () =>
    withPage(h, 'side-effects-own-dashboard', async (w) => {
      const { page } = w;
      await open(w, 'author', `/dashboards/${dashboardId}`);
      const saving = tile(page, 'Saved statuses');
      await eventually(async () => expect(await resultRows(saving)).toEqual(COUNTED), 30000);
      expect(await saving.getByRole('button', { name: 'Run it anyway' }).count()).toBe(0);
      await eventually(async () => expect(await hostsOf(author.headers)).toBeDefined());
      const written = await h.svc.request('GET', `/api/resources/${(await hostsOf(author.headers))!.GUID}/raw`, { headers: author.headers });
      expect(written.text).toBe(SAVED);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('asks before a link with run=1 runs a query that writes, and runs one without side effects at once', () =>
    withPage(h, 'side-effects-link', async (w) => {
      const { page } = w;
      const before = (await hostsOf(viewer.headers))!.VersionNumber;
      await open(w, 'viewer', `/search?${new URLSearchParams({ q: SAVES, t: '1h', run: '1' })}`);
      const ask = page.getByRole('region', { name: 'What this query would change' });
      await ask.getByText(EFFECT).waitFor();
      expect(await ask.innerText()).toMatch(/came from a link/);
      expect(await page.getByRole('textbox', { name: 'Query' }).innerText()).toBe(SAVES);
      expect(await page.getByRole('table', { name: 'Results' }).count()).toBe(0);
      shots.push(await keepScreenshot(page, 'side-effects-link'));
      expect((await hostsOf(viewer.headers))!.VersionNumber).toBe(before);

      await ask.getByRole('button', { name: 'Run it anyway' }).click();
      await eventually(async () => expect(await resultRows(page)).toEqual(COUNTED), 30000);
      expect(await ask.count()).toBe(0);
      await eventually(async () => expect((await hostsOf(viewer.headers))!.VersionNumber).toBe(before + 1));

      // Without side effects, a link runs at once.
      await page.goto(`/search?${new URLSearchParams({ q: 'tag=web kv status | count by status | table status count', t: '1h', run: '1' })}`);
      await eventually(async () => expect(await resultRows(page)).toEqual(COUNTED), 30000);
      expect(await page.getByRole('region', { name: 'What this query would change' }).count()).toBe(0);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('asks the same before the library runs an entry that writes', () =>
    withPage(h, 'side-effects-library', async (w) => {
      const { page } = w;
      const saved = await h.svc.request('POST', '/api/library', { headers: viewer.headers, json: { Name: 'Save statuses', Description: '', Query: SAVES, Labels: [] } });
      expect(saved.status).toBe(200);
      const before = (await hostsOf(viewer.headers))!.VersionNumber;
      await open(w, 'viewer', '/library');
      await page.getByRole('link', { name: 'Run Save statuses' }).click();
      const ask = page.getByRole('region', { name: 'What this query would change' });
      await ask.getByText(EFFECT).waitFor();
      expect((await hostsOf(viewer.headers))!.VersionNumber).toBe(before);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('explains it on a phone, within the width of the screen', () =>
    withPage(
      h,
      'side-effects-phone',
      async (w) => {
        const { page } = w;
        await open(w, 'viewer', `/dashboards/${dashboardId}`);
        const saving = tile(page, 'Saved statuses');
        await saving.getByRole('button', { name: 'Run it anyway' }).waitFor();
        await expectNoSidewaysScroll(page, 'dashboard');
        shots.push(await keepScreenshot(page, 'phone-side-effects-tile'));
        await page.goto(`/search?${new URLSearchParams({ q: SAVES, t: '1h', run: '1' })}`);
        await page.getByRole('region', { name: 'What this query would change' }).getByRole('button', { name: 'Run it anyway' }).waitFor();
        await expectNoSidewaysScroll(page, 'search');
        shots.push(await keepScreenshot(page, 'phone-side-effects-link'));
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
