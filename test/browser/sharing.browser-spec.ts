import { Locator, Page } from 'playwright-core';
import { ConsoleHarness, eventually, keepScreenshot, signIn, Watched, withPage } from './harness';

const PASS = 'sharing-password-1';
const QUERY = 'tag=web grep checkout | count';

/** What people see of things shared with groups: the groups by name, and why they may not change what they only read. */
describe('console sharing with groups (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let nightShift: number;
  let dashboardId: number;
  let globalId: number;

  beforeAll(async () => {
    await h.start();
    const owner = await h.createUser('owner', PASS);
    const colleague = await h.createUser('colleague', PASS);
    await h.createUser('stranger', PASS);
    nightShift = (await h.svc.request('POST', '/api/groups', { headers: h.admin, json: { Name: 'night shift', Desc: 'on call at night' } })).body as number;
    for (const uid of [owner.uid, colleague.uid])
      expect((await h.svc.request('POST', `/api/users/${uid}/group`, { headers: h.admin, json: { GIDs: [nightShift] } })).status).toBe(200);
    const headers = owner.headers;
    const empty = { version: 2, timeframe: { durationString: 'PT1H', timeframe: 'PT1H', start: null, end: null }, searches: [{ query: QUERY }], tiles: [] };
    const made = await h.svc.request('POST', '/api/dashboards', { headers, json: { Name: 'Checkout errors', Description: '', GIDs: [nightShift], Data: empty } });
    expect(made.status).toBe(200);
    dashboardId = made.body as number;
    expect(
      (await h.svc.request('POST', '/api/resources', { headers, json: { ResourceName: 'price list', Description: 'prices by product', GroupACL: [nightShift], Global: false } }))
        .status,
    ).toBe(200);
    const file = new FormData();
    file.set('file', new Blob(['1. restart the shop\n']), 'runbook.txt');
    file.set('meta', JSON.stringify({ Name: 'runbook', Desc: 'what to do at night', GIDs: [nightShift], Labels: [] }));
    expect((await h.svc.request('POST', '/api/files', { headers, body: file })).status).toBe(200);
    expect((await h.svc.request('POST', '/api/library', { headers, json: { Name: 'Slow checkouts', Query: QUERY, GIDs: [nightShift] } })).status).toBe(200);
    // The owner moves to the day shift: what they shared stays shared with the night shift.
    expect((await h.svc.request('DELETE', `/api/users/${owner.uid}/group/${nightShift}`, { headers: h.admin })).status).toBe(200);
    const global = await h.svc.request('POST', '/api/dashboards', {
      headers: h.admin,
      json: { Name: 'Shop health', Description: '', GIDs: [nightShift], Global: true, Data: empty },
    });
    expect(global.status).toBe(200);
    globalId = global.body as number;
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of shared things:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, user: string, path: string): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, user, PASS);
    await w.page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  /** The row of `table` whose row header starts with `name`. */
  const row = (page: Page, table: string, name: string): Locator =>
    page
      .getByRole('table', { name: table, exact: true })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });

  /** The text of the row's cell under the column `column`. */
  async function cellUnder(page: Page, table: string, name: string, column: string): Promise<string> {
    const headers = await page.getByRole('table', { name: table, exact: true }).getByRole('columnheader').allInnerTexts();
    const cells = [...(await row(page, table, name).getByRole('rowheader').allInnerTexts()), ...(await row(page, table, name).getByRole('cell').allInnerTexts())];
    return cells[headers.indexOf(column)].trim();
  }

  it('names the group a thing is shared with, also to its owner who has left the group and to a reader outside it', () =>
    withPage(h, 'group-names', async (w) => {
      const { page } = w;
      await open(w, 'owner', '/dashboards');
      await row(page, 'Dashboards', 'Checkout errors').waitFor();
      // The names arrive with the groups ("…" until then).
      await eventually(async () => expect(await cellUnder(page, 'Dashboards', 'Checkout errors', 'Shared with')).toBe('night shift'));
      shots.push(await keepScreenshot(page, 'sharing-owner-dashboards'));
      await page.getByRole('button', { name: 'Share Checkout errors' }).click();
      const dialog = page.getByRole('dialog', { name: /^Share/ });
      expect(await dialog.getByRole('checkbox', { name: 'night shift' }).isChecked()).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`/dashboards/${dashboardId}`);
      await page.getByRole('heading', { name: 'Checkout errors', level: 1 }).waitFor();
      await page.getByText('Yours, shared with night shift', { exact: true }).waitFor();

      for (const [path, table, name] of [
        ['/resources', 'Resources', 'price list'],
        ['/files', 'Files', 'runbook'],
        ['/library', 'Library entries', 'Slow checkouts'],
      ]) {
        await page.goto(path);
        await row(page, table, name).waitFor();
        await eventually(async () => expect([table, await cellUnder(page, table, name, 'Shared with')]).toEqual([table, 'night shift']));
      }
      shots.push(await keepScreenshot(page, 'sharing-owner-library'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('names the group of a global dashboard to someone in no group', () =>
    withPage(h, 'group-names-stranger', async (w) => {
      const { page } = w;
      await open(w, 'stranger', `/dashboards/${globalId}`);
      await page.getByRole('heading', { name: 'Shop health', level: 1 }).waitFor();
      await page.getByText('Shared with everyone and night shift', { exact: true }).waitFor();
      await page.goto('/dashboards');
      await row(page, 'Dashboards', 'Shop health').waitFor();
      await eventually(async () => expect(await cellUnder(page, 'Dashboards', 'Shop health', 'Shared with')).toBe('everyone, night shift'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('says why a dashboard, resource or file shared for reading cannot be shared, changed or deleted', () =>
    withPage(h, 'why-disabled', async (w) => {
      const { page } = w;
      await open(w, 'colleague', '/dashboards');
      const cases: Array<[string, string, string, string[], string]> = [
        ['/dashboards', 'Dashboards', 'Checkout errors', ['Share Checkout errors', 'Delete Checkout errors'], 'Only its owner, owner, or an administrator may share or delete it.'],
        [
          '/resources',
          'Resources',
          'price list',
          ['Upload contents of price list', 'Edit price list', 'Delete price list'],
          'Only its owner, owner, or an administrator may change or delete it.',
        ],
        ['/files', 'Files', 'runbook', ['Replace the contents of runbook', 'Edit runbook', 'Delete runbook'], 'Only its owner, owner, may change or delete it.'],
      ];
      for (const [path, table, name, buttons, why] of cases) {
        await page.goto(path);
        const r = row(page, table, name);
        await r.waitFor();
        for (const b of buttons) {
          const button = r.getByRole('button', { name: b });
          expect([b, await button.isDisabled()]).toEqual([b, true]);
        }
        // The reason is the disabled buttons' tooltip, and written in the row for touch screens.
        expect(await r.getByTitle(why, { exact: true }).count()).toBe(buttons.length);
        expect(await r.getByText(why, { exact: true }).isVisible()).toBe(true);
        shots.push(await keepScreenshot(page, `sharing-reader-${table.toLowerCase()}`));
      }
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
