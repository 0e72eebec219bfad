import * as fs from 'node:fs';
import { Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD } from '../faults/service';
import { ConsoleHarness, eventually, keepScreenshot, rowsOf, signIn, Watched, withPage } from './harness';

/** Bytes that are not UTF-8 (and a NUL), so a download that went through text would differ. */
const BINARY = Buffer.from([
  0x00,
  0xff,
  0xfe,
  0x80,
  0x81,
  0x0a,
  0x0d,
  0x1b,
  0xc3,
  0x28,
  0x89,
  0x50,
  0x4e,
  0x47,
  0x7f,
  0x00,
  ...Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff),
]);
const CSV = 'host,ip\nalpha,10.0.0.1\nbeta,10.0.0.2\n';

/** Picks a file through the browser's file picker, as a person does ("Choose a file…"). */
async function pickFile(page: Page, scope: Locator, name: string, mimeType: string, buffer: Buffer): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), scope.getByRole('button', { name: 'Choose a file…' }).click()]);
  await chooser.setFiles({ name, mimeType, buffer });
}

/** Drops a file onto a drop zone: dragenter, dragover and drop carrying it, as the browser fires them. */
async function dropFile(zone: Locator, name: string, mimeType: string, text: string): Promise<void> {
  const dataTransfer = await zone.page().evaluateHandle(
    ([n, t, body]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([body], n, { type: t }));
      return dt;
    },
    [name, mimeType, text] as const,
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
}

async function downloadedBytes(page: Page, button: Locator): Promise<{ bytes: Buffer; name: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { bytes: fs.readFileSync((await download.path())!), name: download.suggestedFilename() };
}

/** Resources, user files, the notification bell and the server status page, as people use them. */
describe('console objects: resources, files, notifications, status (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let keeper: { uid: number; headers: Record<string, string> };
  let opsGid: number;

  beforeAll(async () => {
    await h.start();
    keeper = await h.createUser('keeper', 'keeper-password-1');
    const g = await h.svc.request('POST', '/api/groups', { headers: h.admin, json: { Name: 'ops', Desc: 'operations' } });
    expect(g.status).toBe(200);
    opsGid = g.body as number;
    expect((await h.svc.request('POST', `/api/users/${keeper.uid}/group`, { headers: h.admin, json: { GIDs: [opsGid] } })).status).toBe(200);
    await h.ingest(
      keeper.headers,
      'web',
      Array.from({ length: 40 }, (_, i) => ({ data: `status=200 n=${i}`, ageMs: i * 1000 + 500 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the resources, files, notifications and status pages:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, path: string, user = 'keeper', pass = 'keeper-password-1'): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, user, pass);
    await w.page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  const note = (page: Page) => page.getByRole('main').getByRole('status').first();

  it('creates a resource with binary contents picked from disk, downloads the same bytes, previews them, replaces them by drag and drop, clones and deletes', () =>
    withPage(h, 'resources', async (w) => {
      const { page } = w;
      await open(w, '/resources');
      await page.getByText('No resources yet.').waitFor();
      await page.getByRole('button', { name: 'New resource' }).click();
      const dialog = page.getByRole('dialog', { name: 'New resource' });
      await dialog.getByLabel('Name').fill('hosts table');
      await dialog.getByLabel('Description').fill('Hosts <b>and</b> their addresses');
      await dialog.getByRole('checkbox', { name: 'ops' }).check();
      expect(await dialog.getByRole('checkbox', { name: 'Everyone (global)' }).count()).toBe(0); // not an administrator
      await pickFile(page, dialog, 'hosts.bin', 'application/octet-stream', BINARY);
      await dialog.getByText(`hosts.bin`).waitFor();
      shots.push(await keepScreenshot(page, 'resources-new-dialog'));
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => expect(await note(page).innerText()).toBe('Created “hosts table” with its contents.'));
      // The list reloads after the note: wait for the new row.
      const rows = await eventually(async () => {
        const r = await rowsOf(page, 'Resources');
        expect(r).toHaveLength(1);
        return r;
      });
      expect(rows[0].slice(0, 3)).toEqual(['hosts table\nHosts <b>and</b> their addresses', `${BINARY.length} B`, '1']);
      expect(rows[0][4]).toBe('ops');

      // Download: the exact bytes, under the resource's name.
      const got = await downloadedBytes(page, page.getByRole('button', { name: 'Download hosts table' }));
      expect(got.bytes.equals(BINARY)).toBe(true);
      expect(got.name).toBe('hosts table');

      // Preview: the content type and the leading bytes, as hex for binary contents.
      await page.getByRole('button', { name: 'Preview hosts table' }).click();
      const preview = page.getByRole('dialog', { name: 'Preview of “hosts table”' });
      await preview.getByText('Content type').waitFor();
      expect(await preview.getByRole('definition').first().innerText()).toBe('application/octet-stream');
      expect(await preview.getByRole('button', { name: 'Hex' }).getAttribute('aria-pressed')).toBe('true');
      expect((await preview.getByLabel('Leading bytes in hex').innerText()).split('\n')[0]).toBe('00000000  00 ff fe 80 81 0a 0d 1b  c3 28 89 50 4e 47 7f 00  |.........(.PNG..|');
      shots.push(await keepScreenshot(page, 'resources-preview-hex'));
      await preview.getByRole('button', { name: 'Close' }).click();

      // Replace the contents by dropping a CSV onto the upload dialog's zone.
      await page.getByRole('button', { name: 'Upload contents of hosts table' }).click();
      const up = page.getByRole('dialog', { name: 'Upload contents of “hosts table”' });
      await dropFile(up.getByRole('group', { name: 'New contents' }), 'hosts.csv', 'text/csv', CSV);
      await up.getByText('hosts.csv').waitFor();
      await up.getByRole('button', { name: 'Upload', exact: true }).click();
      await up.waitFor({ state: 'detached' });
      await eventually(async () => expect(await note(page).innerText()).toBe(`Uploaded ${CSV.length} B to “hosts table” (version 2).`));
      expect((await downloadedBytes(page, page.getByRole('button', { name: 'Download hosts table' }))).bytes.toString('utf8')).toBe(CSV);
      await page.getByRole('button', { name: 'Preview hosts table' }).click();
      await preview.getByLabel('Leading bytes as text').waitFor();
      expect(await preview.getByLabel('Leading bytes as text').innerText()).toBe(CSV);
      expect(await preview.getByRole('definition').first().innerText()).toMatch(/^text\//);
      shots.push(await keepScreenshot(page, 'resources-preview-text'));
      await preview.getByRole('button', { name: 'Close' }).click();

      // Edit the sharing, clone, delete the clone (confirmed).
      await page.getByRole('button', { name: 'Edit hosts table' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit “hosts table”' });
      await edit.getByRole('checkbox', { name: 'ops' }).uncheck();
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached' });
      await eventually(async () => expect((await rowsOf(page, 'Resources'))[0][4]).toBe('only the owner'));
      await page.getByRole('button', { name: 'Clone hosts table' }).click();
      const clone = page.getByRole('dialog', { name: 'Clone “hosts table”' });
      expect(await clone.getByLabel('Name of the copy').inputValue()).toBe('hosts table (copy)');
      await clone.getByRole('button', { name: 'Clone' }).click();
      await clone.waitFor({ state: 'detached' });
      await eventually(async () => expect((await rowsOf(page, 'Resources')).map((r) => r[0].split('\n')[0])).toEqual(['hosts table', 'hosts table (copy)']));
      expect((await downloadedBytes(page, page.getByRole('button', { name: 'Download hosts table (copy)' }))).bytes.toString('utf8')).toBe(CSV);
      shots.push(await keepScreenshot(page, 'resources-page'));
      await page.getByRole('button', { name: 'Delete hosts table (copy)' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete resource' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await confirm.waitFor({ state: 'detached' });
      await eventually(async () => expect(await rowsOf(page, 'Resources')).toHaveLength(1));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('uploads a user file with its metadata, downloads the same bytes, edits and deletes it', () =>
    withPage(h, 'files', async (w) => {
      const { page } = w;
      await open(w, '/files');
      await page.getByRole('button', { name: 'Upload a file' }).click();
      const dialog = page.getByRole('dialog', { name: 'Upload a file' });
      await pickFile(page, dialog, 'blob.dat', 'application/octet-stream', BINARY);
      expect(await dialog.getByLabel('Name').inputValue()).toBe('blob.dat'); // the picked file's name until one is typed
      await dialog.getByLabel('Name').fill('capture sample');
      await dialog.getByLabel('Description').fill('First packets of the capture');
      await dialog.getByLabel('Labels').fill('pcap, samples');
      await dialog.getByRole('checkbox', { name: 'ops' }).check();
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => expect(await note(page).innerText()).toBe('Uploaded “capture sample”.'));
      const [row] = await eventually(async () => {
        const r = await rowsOf(page, 'Files');
        expect(r).toHaveLength(1);
        return r;
      });
      expect(row.slice(0, 6)).toEqual(['capture sample\nFirst packets of the capture', 'application/octet-stream', `${BINARY.length} B`, row[3], 'pcap, samples', 'ops']);

      const got = await downloadedBytes(page, page.getByRole('button', { name: 'Download capture sample' }));
      expect(got.bytes.equals(BINARY)).toBe(true);
      expect(got.name).toBe('capture sample');

      await page.getByRole('button', { name: 'Edit capture sample' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit “capture sample”' });
      await edit.getByLabel('Labels').fill('pcap');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached' });
      await eventually(async () => expect((await rowsOf(page, 'Files'))[0][4]).toBe('pcap'));
      shots.push(await keepScreenshot(page, 'files-page'));

      // The API sees the same file (a colleague in ops could read it).
      const list = await h.svc.request('GET', '/api/files', { headers: keeper.headers });
      expect(list.body).toEqual([expect.objectContaining({ Name: 'capture sample', GIDs: [opsGid], Labels: ['pcap'], Size: BINARY.length })]);

      await page.getByRole('button', { name: 'Delete capture sample' }).click();
      await page.getByRole('dialog', { name: 'Delete file' }).getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No files yet.').waitFor();
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('an administrator sends notifications; the user sees them in the bell, dismisses them, and they stay dismissed after a reload', async () => {
    await withPage(h, 'notifications-send', async (w) => {
      const { page } = w;
      await open(w, '/search', 'admin', ADMIN_PASSWORD);
      await page.getByRole('button', { name: /^Notifications/ }).click();
      for (const [to, msg] of [
        ['A user', 'Your export is ready'],
        ['Everyone', 'Maintenance tonight at 22:00'],
      ]) {
        await page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Send a notification…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Send a notification' });
        await dialog.getByRole('radio', { name: to }).check();
        if (to === 'A user') await dialog.getByLabel('User', { exact: true }).selectOption({ label: 'keeper (keeper tester)' });
        await dialog.getByLabel('Message').fill(msg);
        await dialog.getByLabel('Level').selectOption(to === 'A user' ? 'info' : 'warn');
        if (to === 'A user') shots.push(await keepScreenshot(page, 'notifications-send-dialog'));
        await dialog.getByRole('button', { name: 'Send' }).click();
        await dialog.waitFor({ state: 'detached' });
        await page
          .getByRole('region', { name: 'Notifications' })
          .getByText(to === 'A user' ? 'Sent to keeper.' : 'Sent to everyone.')
          .waitFor();
      }
      // The administrator receives the broadcast too.
      await page.getByRole('region', { name: 'Notifications' }).getByText('Maintenance tonight at 22:00').waitFor();
      expect(await h.problemsOf(w)).toEqual([]);
    });

    await withPage(h, 'notifications-read', async (w) => {
      const { page } = w;
      await open(w, '/search');
      const bell = page.getByRole('button', { name: /^Notifications/ });
      await eventually(async () => expect(await bell.getAttribute('aria-label')).toBe('Notifications, 2 unread'));
      await bell.click();
      const panel = page.getByRole('region', { name: 'Notifications' });
      const items = panel.getByRole('list', { name: 'Unread notifications' }).getByRole('listitem');
      expect((await items.allInnerTexts()).map((t) => t.split('\n').filter((l) => l.trim()))).toEqual([
        ['WARN', 'just now', 'to everyone', 'Maintenance tonight at 22:00', 'Dismiss'],
        ['just now', 'to you', 'Your export is ready', 'Dismiss'],
      ]);
      shots.push(await keepScreenshot(page, 'notifications-bell'));
      await panel.getByRole('button', { name: 'Dismiss “Your export is ready”' }).click();
      await panel.getByRole('button', { name: 'Dismiss “Maintenance tonight at 22:00”' }).click();
      await panel.getByText('No unread notifications.').waitFor();
      await eventually(async () => expect(await bell.getAttribute('aria-label')).toBe('Notifications, none unread'));
      // Let the dismissal reach the preferences before reloading.
      await eventually(async () => {
        const prefs = await h.svc.request('GET', `/api/users/${keeper.uid}/preferences`, { headers: keeper.headers });
        expect((prefs.body as { consoleNotifications?: { dismissed: string[] } })?.consoleNotifications?.dismissed).toHaveLength(1);
      });
      await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/notifications')), page.reload()]);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await eventually(async () => expect(await page.getByRole('button', { name: /^Notifications/ }).getAttribute('aria-label')).toBe('Notifications, none unread'));
      expect(await h.problemsOf(w)).toEqual([]);
    });

    // Their own was deleted; the broadcast was only hidden for them: everyone else still has it.
    const all = await h.svc.request('GET', '/api/notifications', { headers: h.admin });
    expect(Object.values(all.body as Record<string, { Msg: string }>).map((n) => n.Msg)).toEqual(['Maintenance tonight at 22:00']);
    const mine = await h.svc.request('GET', '/api/notifications', { headers: keeper.headers });
    expect(Object.values(mine.body as Record<string, { Msg: string }>).map((n) => n.Msg)).toEqual(['Maintenance tonight at 22:00']);
  });

  it('the status page shows the components, machines and indexers, live, and the figures follow new entries', () =>
    withPage(h, 'status', async (w) => {
      const { page } = w;
      await open(w, '/admin/status', 'admin', ADMIN_PASSWORD);
      // Live over /api/ws/stats: the socket authenticates with the console's session cookie (same origin).
      await page.getByRole('status').filter({ hasText: 'Live: updates every 2 seconds' }).waitFor({ timeout: 15000 });
      const cards = page.getByRole('list', { name: 'Components' }).getByRole('listitem');
      await eventually(async () => expect((await cards.allInnerTexts())[0].replace(/\s+/g, ' ').trim()).toBe('Web server OK'));
      expect(await cards.count()).toBeGreaterThanOrEqual(2);
      await page.getByRole('region', { name: 'Machine Web server' }).getByText('Memory').waitFor();
      const entries = async () => (await rowsOf(page, 'Indexers'))[0][2];
      let before = 0;
      await eventually(async () => {
        const rows = await rowsOf(page, 'Indexers');
        expect(rows.length).toBeGreaterThanOrEqual(1);
        expect(rows[0][1]).toBe('OK');
        before = Number((await entries()).replace(/[^\d]/g, ''));
        expect(before).toBeGreaterThanOrEqual(40);
      });
      await h.ingest(
        keeper.headers,
        'web',
        Array.from({ length: 25 }, (_, i) => ({ data: `status=500 m=${i}`, ageMs: i * 1000 + 500 })),
      );
      await eventually(async () => expect(Number((await entries()).replace(/[^\d]/g, ''))).toBe(before + 25), 20000);
      // Each day partition behind a disclosure: today's holds every entry.
      await page.getByText(/^Partitions of /).click();
      const parts = page.getByRole('table', { name: /^Partitions of .*, well default$/ }).getByRole('row');
      await eventually(async () => expect((await parts.nth(1).getByRole('cell').first().innerText()).replace(/[^\d]/g, '')).toBe(String(before + 25)));
      shots.push(await keepScreenshot(page, 'status-page'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
