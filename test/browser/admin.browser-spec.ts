import { Page } from 'playwright-core';
import { ADMIN_PASSWORD } from '../faults/service';
import { ConsoleHarness, eventually, keepScreenshot, rowsOf, signIn, Watched, withPage } from './harness';

const rowOf = async (page: Page, table: string, first: string): Promise<string[] | undefined> => (await rowsOf(page, table)).find((r) => r[0].split('\n')[0] === first);

/** Administration as a person does it: groups, users, API tokens; and what a non-admin gets. */
describe('console administration (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let daveUid: number;
  let daveHeaders: Record<string, string>;

  beforeAll(async () => {
    await h.start();
    const dave = await h.createUser('dave', 'dave-password-1');
    daveUid = dave.uid;
    daveHeaders = dave.headers;
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the administration pages:\n${shots.join('\n')}\n`);
  });

  async function openAs(w: Watched, path: string, user = 'admin', pass = ADMIN_PASSWORD): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, user, pass);
    await w.page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  /** Waits for the page to say `text` in a status line (the page's own, not a dialog's). */
  async function said(page: Page, text: string): Promise<void> {
    const line = page.getByRole('main').getByRole('status').filter({ hasText: text }).first();
    await line.waitFor();
    expect(await line.innerText()).toBe(text);
  }

  it('creates a group, describes it and adds a member', () =>
    withPage(h, 'admin-groups', async (w) => {
      const { page } = w;
      await openAs(w, '/search');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByText('Admin', { exact: true }).click();
      await nav.getByRole('link', { name: 'Groups' }).click();
      await page.getByRole('heading', { name: 'Groups', level: 1 }).waitFor();
      await page.getByText('There are no groups yet.').waitFor();

      await page.getByRole('button', { name: 'New group' }).click();
      let dialog = page.getByRole('dialog', { name: 'New group' });
      await dialog.getByLabel('Name').fill('ops');
      await dialog.getByLabel('Description').fill('Operations <b>on call</b>');
      await dialog.getByRole('button', { name: 'Create group' }).click();
      await dialog.waitFor({ state: 'detached' });
      await said(page, 'Created the group ops.');
      await eventually(async () => expect((await rowsOf(page, 'Groups')).map((r) => r.slice(0, 3))).toEqual([['ops', 'Operations <b>on call</b>', 'nobody']]));

      // A second group, renamed.
      await page.getByRole('button', { name: 'New group' }).click();
      dialog = page.getByRole('dialog', { name: 'New group' });
      await dialog.getByLabel('Name').fill('webteam');
      await dialog.getByRole('button', { name: 'Create group' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Edit webteam' }).click();
      dialog = page.getByRole('dialog', { name: 'Edit the group webteam' });
      await dialog.getByLabel('Name').fill('web');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await said(page, 'Renamed webteam to web.');

      // A refusal is shown in the API's words.
      await page.getByRole('button', { name: 'New group' }).click();
      dialog = page.getByRole('dialog', { name: 'New group' });
      await dialog.getByLabel('Name').fill('a/b');
      await dialog.getByRole('button', { name: 'Create group' }).click();
      expect(await dialog.getByRole('alert').innerText()).toMatch(/slashes/);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: 'Members of ops' }).click();
      dialog = page.getByRole('dialog', { name: 'Members of ops' });
      await dialog.getByText('Nobody is in this group yet.').waitFor();
      await dialog.getByLabel('Add a user').selectOption({ label: 'dave (dave tester)' });
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await eventually(async () =>
        expect(await dialog.getByRole('list', { name: 'Members of ops' }).getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^dave · dave tester\s+Remove$/)]),
      );
      await dialog.getByRole('button', { name: 'Done' }).click();
      await eventually(async () => expect((await rowOf(page, 'Groups', 'ops'))?.[2]).toBe('dave'));

      const groups = await h.svc.request('GET', `/api/users/${daveUid}/group`, { headers: h.admin });
      expect((groups.body as Array<{ Name: string }>).map((g) => g.Name)).toEqual(['ops']);
      shots.push(await keepScreenshot(page, 'admin-groups'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('offers an administrator every group to share with, not only the groups they belong to', () =>
    withPage(h, 'admin-shares-any-group', async (w) => {
      const { page } = w;
      // The admin belongs to no group; the test above made "ops" (dave is its member).
      await openAs(w, '/resources');
      await page.getByRole('button', { name: 'New resource' }).click();
      const dialog = page.getByRole('dialog', { name: 'New resource' });
      await dialog.getByRole('checkbox', { name: 'ops' }).waitFor();
      expect(await dialog.getByText('You belong to no groups').count()).toBe(0);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('creates a user with a group in the console, who then signs in; locking ends their open session; reset, unlock and delete', () =>
    withPage(h, 'admin-users', async (w) => {
      const { page } = w;
      await openAs(w, '/admin/users');
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await eventually(async () => expect((await rowsOf(page, 'Users')).map((r) => r[0].split('\n')[0])).toEqual(['admin', 'dave']));

      await page.getByRole('button', { name: 'New user' }).click();
      const dialog = page.getByRole('dialog', { name: 'New user' });
      await dialog.getByLabel('Username').fill('erin');
      await dialog.getByLabel('Name', { exact: true }).fill('Erin Example');
      await dialog.getByLabel('Email').fill('erin@example.com');
      await dialog.getByLabel('Password', { exact: true }).fill('erin-password-1');
      await dialog.getByLabel('Repeat the password').fill('erin-password-1');
      await dialog.getByRole('group', { name: 'Groups' }).getByRole('checkbox', { name: 'ops' }).check();
      await dialog.getByLabel('Default search group').selectOption({ label: 'ops' });
      await dialog.getByRole('button', { name: 'Create user' }).click();
      await dialog.waitFor({ state: 'detached' });
      await said(page, 'Created erin.');
      await eventually(async () => expect((await rowOf(page, 'Users', 'erin'))?.slice(0, 7)).toEqual(['erin', 'Erin Example', 'erin@example.com', 'User', 'Active', 'ops', 'ops']));
      shots.push(await keepScreenshot(page, 'admin-users'));
      const stored = (await h.svc.request('GET', '/api/users', { headers: h.admin })).body as Array<{
        UID: number;
        User: string;
        DefaultGID?: number;
        Groups: Array<{ Name: string }>;
      }>;
      const erin = stored.find((u) => u.User === 'erin')!;
      expect(erin.Groups.map((g) => g.Name)).toEqual(['ops']);
      expect(erin.DefaultGID).toBeGreaterThan(0);

      // Erin signs in in her own browser.
      const other = await h.page();
      try {
        await openAs(other, '/library', 'erin', 'erin-password-1');
        await other.page.getByRole('heading', { name: 'Query library' }).waitFor();
        expect(await other.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count()).toBe(0);

        // The administrator locks her: the dialog counts her sessions before and after.
        await page.getByRole('button', { name: 'Lock erin' }).click();
        let lock = page.getByRole('dialog', { name: 'Lock erin' });
        await eventually(async () => expect(await lock.getByText('erin has 1 session open now.').isVisible()).toBe(true));
        await lock.getByRole('button', { name: 'Lock', exact: true }).click();
        lock = page.getByRole('dialog', { name: 'erin is locked' });
        expect(await lock.getByRole('status').innerText()).toBe('Locked erin: 1 session ended, 0 open now.');
        expect(await lock.getByRole('definition').allInnerTexts()).toEqual(['1', '0']);
        shots.push(await keepScreenshot(page, 'admin-user-locked'));
        await lock.getByRole('button', { name: 'Close' }).click();
        await eventually(async () => expect((await rowOf(page, 'Users', 'erin'))?.[4]).toBe('Locked'));

        // Her open page lands on the sign-in page at her next step, and she cannot sign in.
        await other.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
        await other.page.waitForURL('**/login');
        expect(await other.page.getByRole('status').innerText()).toMatch(/^Your session has ended/);
        await signIn(other.page, 'erin', 'erin-password-1');
        expect(await other.page.getByRole('alert').innerText()).toBe('This account is locked. Ask an administrator to unlock it.');

        // Unlocked, with a new password set by the administrator, she signs in again.
        await page.getByRole('button', { name: 'Unlock erin' }).click();
        await said(page, 'Unlocked erin: they can sign in again.');
        await page.getByRole('button', { name: 'Set the password of erin' }).click();
        const pwd = page.getByRole('dialog', { name: 'Reset the password of erin' });
        await pwd.getByLabel('New password', { exact: true }).fill('erin-password-2');
        await pwd.getByLabel('Repeat the new password').fill('erin-password-2');
        await pwd.getByRole('button', { name: 'Set password' }).click();
        await pwd.waitFor({ state: 'detached' });
        await said(page, 'Set a new password for erin; their sessions have ended.');
        await signIn(other.page, 'erin', 'erin-password-2');
        await other.page.getByRole('navigation', { name: 'Main' }).waitFor();
        expect(await h.problemsOf(other)).toEqual([]);
      } finally {
        await other.page.context().close();
      }

      // Make her an administrator and take her out of ops: the default group goes with it.
      await page.getByRole('button', { name: 'Edit erin' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit erin' });
      await edit.getByRole('switch', { name: 'Administrator' }).check();
      await edit.getByRole('group', { name: 'Groups' }).getByRole('checkbox', { name: 'ops' }).uncheck();
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached' });
      await eventually(async () => expect((await rowOf(page, 'Users', 'erin'))?.slice(3, 7)).toEqual(['Administrator', 'Active', 'none', 'None']));

      // The primary admin and oneself cannot be deleted; erin can, after a confirmation.
      expect(await page.getByRole('button', { name: 'Delete admin' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Delete erin' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete erin' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      expect(await rowOf(page, 'Users', 'erin')).toBeDefined();
      await page.getByRole('button', { name: 'Delete erin' }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await said(page, 'Deleted erin.');
      expect(await rowOf(page, 'Users', 'erin')).toBeUndefined();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('creates an API token with the ingest and search capabilities, shows its secret once, and the token works against the API', () =>
    withPage(
      h,
      'admin-tokens',
      async (w) => {
        const { page } = w;
        await openAs(w, '/search');
        await page.getByLabel(/^Account: /).click();
        await page.getByRole('group', { name: 'Account' }).getByRole('link', { name: 'API tokens' }).click();
        await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
        await page.getByText('No API tokens yet.').waitFor();

        await page.getByRole('button', { name: 'New token' }).click();
        const dialog = page.getByRole('dialog', { name: 'New API token' });
        await dialog.getByLabel('Name').fill('web01 shipper');
        await dialog.getByLabel('Description').fill('nginx logs of web01');
        await dialog.getByRole('button', { name: 'Log shipper' }).click();
        expect(await dialog.getByRole('checkbox', { name: 'Ingest', exact: true }).isChecked()).toBe(true);
        expect(await dialog.getByRole('checkbox', { name: 'All of Data Ingest' }).isChecked()).toBe(true);
        await dialog.getByRole('checkbox', { name: 'Search', exact: true }).check();
        await dialog.getByLabel('Expires').selectOption({ label: '30 days' });
        shots.push(await keepScreenshot(page, 'token-new-dialog'));
        await dialog.getByRole('button', { name: 'Create token' }).click();

        const shown = page.getByRole('dialog', { name: 'Token “web01 shipper” created' });
        const secret = await shown.getByLabel('Secret').inputValue();
        expect(secret).toMatch(/^sst_[A-Za-z0-9_-]{48}$/);
        expect(await shown.getByText('Copy the secret now: you will not see it again.').isVisible()).toBe(true);
        await shown.getByRole('button', { name: 'Copy' }).click();
        await eventually(async () => expect(await shown.getByRole('status').innerText()).toBe('Copied to the clipboard.'));
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
        expect(await shown.getByText(`/api/ingest/lines`).count()).toBe(1);
        shots.push(await keepScreenshot(page, 'token-created'));
        await shown.getByRole('button', { name: 'I have copied it, close' }).click();
        await shown.waitFor({ state: 'detached' });

        // Gone from the page, and after a reload.
        await eventually(async () => expect((await rowOf(page, 'API tokens', 'web01 shipper'))?.slice(1, 3)).toEqual(['admin', 'Search: Search\nData Ingest: Ingest']));
        expect(await page.content()).not.toContain(secret);
        await page.reload();
        await page.getByRole('table', { name: 'API tokens' }).waitFor();
        expect(await page.content()).not.toContain(secret);
        shots.push(await keepScreenshot(page, 'tokens'));

        // The token works as curl would use it: ingest, whoami; never an admin route; nothing it does not hold.
        const token = { 'Service-Token': secret };
        const ingest = await h.svc.request('PUT', '/api/ingest/json', {
          headers: token,
          json: [{ TS: new Date().toISOString(), Tag: 'shipped', Data: Buffer.from('hello from web01').toString('base64') }],
        });
        expect(ingest.status).toBe(200);
        expect(ingest.body).toEqual(expect.objectContaining({ Count: 1 }));
        const who = await h.svc.request('GET', '/api/info/whoami', { headers: token });
        expect(who.status).toBe(200);
        expect((who.body as { User: string }).User).toBe('admin');
        expect((await h.svc.request('POST', '/api/users', { headers: token, json: { User: 'x', Pass: 'xxxxxxxx', Name: '', Email: '', Admin: false } })).status).toBe(403);
        expect((await h.svc.request('GET', '/api/library', { headers: token })).status).toBe(403);
        await eventually(async () => {
          await page.reload();
          expect((await rowOf(page, 'API tokens', 'web01 shipper'))?.[4]).not.toBe('never');
        });

        // Refresh: a new secret, shown once; the old one stops working.
        await page.getByRole('button', { name: 'Refresh web01 shipper' }).click();
        await page.getByRole('dialog', { name: 'Refresh the token “web01 shipper”' }).getByRole('button', { name: 'Refresh' }).click();
        const again = page.getByRole('dialog', { name: 'New secret for “web01 shipper”' });
        const secret2 = await again.getByLabel('Secret').inputValue();
        expect(secret2).not.toBe(secret);
        await again.getByRole('button', { name: 'I have copied it, close' }).click();
        expect((await h.svc.request('GET', '/api/info/whoami', { headers: token })).status).toBe(401);
        expect((await h.svc.request('GET', '/api/info/whoami', { headers: { 'Service-Token': secret2 } })).status).toBe(200);

        // Delete, after a confirmation: the token is refused.
        await page.getByRole('button', { name: 'Delete web01 shipper' }).click();
        await page.getByRole('dialog', { name: 'Delete API token' }).getByRole('button', { name: 'Delete' }).click();
        await said(page, 'Deleted the token “web01 shipper”.');
        expect((await h.svc.request('GET', '/api/info/whoami', { headers: { 'Service-Token': secret2 } })).status).toBe(401);
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { clipboard: true },
    ));

  it('lets a non-admin keep their own tokens; the admin sees them with the owner and can turn tokens off for non-admins', () =>
    withPage(h, 'tokens-non-admin', async (w) => {
      const { page } = w;
      await openAs(w, '/tokens', 'dave', 'dave-password-1');
      await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
      expect(await page.getByRole('switch', { name: 'Non-admin users may use API tokens' }).count()).toBe(0);
      await page.getByRole('button', { name: 'New token' }).click();
      const dialog = page.getByRole('dialog', { name: 'New API token' });
      await dialog.getByLabel('Name').fill('dave reader');
      await dialog.getByRole('checkbox', { name: 'All of Search' }).check();
      await dialog.getByLabel('Expires').selectOption({ label: 'Never' });
      await dialog.getByRole('button', { name: 'Create token' }).click();
      const shown = page.getByRole('dialog', { name: 'Token “dave reader” created' });
      const secret = await shown.getByLabel('Secret').inputValue();
      await shown.getByRole('button', { name: 'I have copied it, close' }).click();
      await eventually(async () => expect((await rowOf(page, 'API tokens', 'dave reader'))?.slice(1, 3)).toEqual(['Search: all', 'Never']));
      expect((await h.svc.request('GET', '/api/searchhistory', { headers: { 'Service-Token': secret } })).status).toBe(200);

      // Narrowed to the search history and renamed: the secret stays, its reach shrinks.
      await page.getByRole('button', { name: 'Edit dave reader' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit the token “dave reader”' });
      expect(await edit.getByLabel('Expires').inputValue()).toBe('keep');
      await edit.getByLabel('Name').fill('dave history');
      await edit.getByRole('checkbox', { name: 'All of Search' }).uncheck();
      await edit.getByRole('checkbox', { name: 'SearchHistory', exact: true }).check();
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached' });
      await said(page, 'Saved the token “dave history”.');
      await eventually(async () => expect((await rowOf(page, 'API tokens', 'dave history'))?.slice(1, 3)).toEqual(['Search: SearchHistory', 'Never']));
      expect((await h.svc.request('GET', '/api/searchhistory', { headers: { 'Service-Token': secret } })).status).toBe(200);
      expect((await h.svc.request('GET', '/api/searchctrl', { headers: { 'Service-Token': secret } })).status).toBe(403);

      const admin = await h.page();
      try {
        await openAs(admin, '/tokens');
        await eventually(async () => expect((await rowOf(admin.page, 'API tokens', 'dave history'))?.[1]).toBe('dave'));
        const sw = admin.page.getByRole('switch', { name: 'Non-admin users may use API tokens' });
        await eventually(async () => expect(await sw.isChecked()).toBe(true));
        await sw.uncheck();
        await eventually(async () => expect(await admin.page.getByText('API tokens are now off for non-admin users').isVisible()).toBe(true));
        expect((await h.svc.request('GET', '/api/searchhistory', { headers: { 'Service-Token': secret } })).status).toBe(401);
        await page.reload();
        expect(await page.getByRole('main').getByRole('alert').innerText()).toMatch(/^The tokens could not be read: An admin has turned off API tokens for non-admin users/);
        await sw.check();
        await eventually(async () => expect((await h.svc.request('GET', '/api/searchhistory', { headers: { 'Service-Token': secret } })).status).toBe(200));
        expect(await h.problemsOf(admin)).toEqual([]);
      } finally {
        await admin.page.context().close();
      }
    }));

  it('shows a non-admin no administration pages, says "Admins only" when one is opened anyway, and the API refuses them', () =>
    withPage(h, 'non-admin', async (w) => {
      const { page } = w;
      await openAs(w, '/search', 'dave', 'dave-password-1');
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link').allInnerTexts()).not.toEqual(expect.arrayContaining(['Users']));
      for (const name of ['Users', 'Groups', 'Status']) expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(0);
      expect(await nav.getByText('Admin', { exact: true }).count()).toBe(0);
      await page.getByLabel(/^Account: /).click();
      expect(await page.getByRole('group', { name: 'Account' }).getByRole('link', { name: 'API tokens' }).count()).toBe(1);

      for (const path of ['/admin/users', '/admin/groups']) {
        await page.goto(path);
        await page.getByRole('heading', { name: 'Admins only' }).waitFor();
        expect(await page.getByRole('table').count()).toBe(0);
      }

      // Trying anyway from the signed-in browser, and with the account's JWT.
      const fromPage = await page.evaluate(async (uid) => {
        const call = async (method: string, url: string, body?: unknown) =>
          (
            await fetch(url, {
              method,
              headers: { 'X-Console': '1', 'Content-Type': 'application/json' },
              body: body === undefined ? undefined : JSON.stringify(body),
            })
          ).status;
        return {
          create: await call('POST', '/api/users', { User: 'mallory', Pass: 'mallory-pass-1', Name: '', Email: '', Admin: false }),
          promote: await call('PUT', `/api/users/${uid}/admin`),
          readAdmin: await call('GET', '/api/users/1'),
          lockAdmin: await call('PUT', '/api/users/1/lock'),
        };
      }, daveUid);
      expect(fromPage).toEqual({ create: 403, promote: 403, readAdmin: 403, lockAdmin: 403 });
      const refused: Array<[string, string, unknown?]> = [
        ['GET', '/api/users/1'],
        ['GET', '/api/users/1/sessions'],
        ['DELETE', '/api/users/1'],
        ['POST', `/api/users/${daveUid}/group`, { GIDs: [1] }],
        ['POST', '/api/groups', { Name: 'mine' }],
        ['GET', '/api/tokens/settings'],
        ['GET', '/api/tokens?admin=true'],
      ];
      for (const [method, url, json] of refused) expect([method, url, (await h.svc.request(method, url, { headers: daveHeaders, json })).status]).toEqual([method, url, 403]);
      expect((await h.svc.request('GET', '/api/users', { headers: h.admin })).body).not.toEqual(expect.arrayContaining([expect.objectContaining({ User: 'mallory' })]));
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
