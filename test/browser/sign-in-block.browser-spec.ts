import { Page } from 'playwright-core';
import { ADMIN_PASSWORD } from '../faults/service';
import { ConsoleHarness, eventually, keepScreenshot, PHONE, signIn, Watched, withPage } from './harness';
import { expectNoSidewaysScroll, onScreen, swipeLeft } from './touch';

const MAX_FAILURES = 5; // LOGIN_MAX_FAILURES_PER_ACCOUNT's default

/** The status cell of a user's row in the Users table (the signed-in administrator's name is followed by "you"). */
async function statusOf(page: Page, user: string): Promise<string> {
  const row = page
    .getByRole('table', { name: 'Users' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${user}( you)?$`) }) });
  return (await row.getByRole('cell').nth(3).innerText()).trim();
}

/** "14:04": the minute by which the block has surely ended, in this machine's zone (the browser's too). */
function untilMinute(iso: string): string {
  const d = new Date(Math.ceil(Date.parse(iso) / 60_000) * 60_000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * Issue 24, item 6: anyone who knows a user name can use up that account's sign-in budget with
 * wrong passwords; the administrator sees it on the Users page and allows sign-in again.
 */
describe('sign-in blocked by failed sign-ins, as an administrator sees and clears it (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];

  beforeAll(() => h.start());
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of blocked sign-ins:\n${shots.join('\n')}\n`);
  });

  /** Wrong passwords for `user` through the API, as a stranger would send them. */
  async function guess(user: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++) expect((await h.svc.request('POST', '/api/login', { json: { User: user, Pass: `wrong-guess-${i}` } })).status).toBe(422);
  }

  async function blockedUntil(user: string): Promise<string> {
    const users = (await h.svc.request('GET', '/api/users', { headers: h.admin })).body as Array<{ User: string; LoginBlockedUntil?: string }>;
    return users.find((u) => u.User === user)!.LoginBlockedUntil!;
  }

  async function openUsers(w: Watched): Promise<void> {
    await w.page.goto('/admin/users');
    await signIn(w.page, 'admin', ADMIN_PASSWORD);
    await w.page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  }

  it('shows the block after wrong passwords, allows sign-in again after a confirmation, and the user signs in', async () => {
    await h.createUser('frank', 'frank-password-1');
    await h.createUser('gina', 'gina-password-1');
    await guess('frank', MAX_FAILURES);
    await guess('gina', 2);
    // Even the right password is refused now.
    expect((await h.svc.request('POST', '/api/login', { json: { User: 'frank', Pass: 'frank-password-1' } })).status).toBe(429);
    const until = untilMinute(await blockedUntil('frank'));

    await withPage(h, 'sign-in-blocked', async (w) => {
      const { page } = w;
      await openUsers(w);
      await eventually(async () => expect(await statusOf(page, 'frank')).toBe(`Sign-in blocked until ${until} (${MAX_FAILURES} failed sign-ins)`));
      expect(await statusOf(page, 'gina')).toBe('Active (2 failed sign-ins)');
      expect(await statusOf(page, 'admin')).toBe('Active');
      expect(await page.getByRole('button', { name: 'Allow sign-in for gina' }).count()).toBe(0);
      shots.push(await keepScreenshot(page, 'users-sign-in-blocked'));

      // Asked first; Cancel changes nothing.
      await page.getByRole('button', { name: 'Allow sign-in for frank' }).click();
      const dialog = page.getByRole('dialog', { name: 'Allow sign-in for frank' });
      expect(await dialog.getByRole('paragraph').first().innerText()).toBe(
        `frank cannot sign in until ${until}: someone typed a wrong password for this account ${MAX_FAILURES} times. Allow sign-in now? The failed sign-ins are forgotten; if someone is guessing the password, set a new one as well.`,
      );
      shots.push(await keepScreenshot(page, 'users-allow-sign-in'));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await statusOf(page, 'frank')).toMatch(/^Sign-in blocked until/);
      expect((await h.svc.request('POST', '/api/login', { json: { User: 'frank', Pass: 'frank-password-1' } })).status).toBe(429);

      await page.getByRole('button', { name: 'Allow sign-in for frank' }).click();
      await dialog.getByRole('button', { name: 'Allow sign-in' }).click();
      await dialog.waitFor({ state: 'detached' });
      const said = page.getByRole('main').getByRole('status').filter({ hasText: 'frank' });
      expect(await said.innerText()).toBe('frank can sign in again: their failed sign-ins are forgotten.');
      await eventually(async () => expect(await statusOf(page, 'frank')).toBe('Active'));
      expect(await page.getByRole('button', { name: 'Allow sign-in for frank' }).count()).toBe(0);

      // Frank signs in at his own browser.
      const his = await h.page();
      try {
        await his.page.goto('/search');
        await signIn(his.page, 'frank', 'frank-password-1');
        await his.page.getByRole('navigation', { name: 'Main' }).waitFor();
        expect(await h.problemsOf(his)).toEqual([]);
      } finally {
        await his.page.context().close();
      }
      expect(await h.problemsOf(w)).toEqual([]);
    });
  });

  it('on a phone: the users table scrolls inside itself to Allow sign-in, and the page never sideways', async () => {
    await h.createUser('hank-with-a-long-name', 'hank-password-1');
    await guess('hank-with-a-long-name', MAX_FAILURES);
    const until = untilMinute(await blockedUntil('hank-with-a-long-name'));

    await withPage(
      h,
      'sign-in-blocked-phone',
      async (w) => {
        const { page } = w;
        await openUsers(w);
        const table = page.getByRole('table', { name: 'Users' });
        await eventually(async () => expect(await statusOf(page, 'hank-with-a-long-name')).toBe(`Sign-in blocked until ${until} (${MAX_FAILURES} failed sign-ins)`));
        await expectNoSidewaysScroll(page, 'users');
        shots.push(await keepScreenshot(page, 'phone-users-sign-in-blocked'));

        const allow = page.getByRole('button', { name: 'Allow sign-in for hank-with-a-long-name' });
        const cdp = await page.context().newCDPSession(page);
        await eventually(async () => {
          if (!(await onScreen(allow, page))) await swipeLeft(cdp, table, 300);
          expect(await onScreen(allow, page)).toBe(true);
        }, 20000);
        expect(await page.evaluate(() => window.scrollX)).toBe(0);
        await expectNoSidewaysScroll(page, 'users-scrolled');
        shots.push(await keepScreenshot(page, 'phone-users-allow-sign-in-button'));
        await allow.tap();
        const dialog = page.getByRole('dialog', { name: 'Allow sign-in for hank-with-a-long-name' });
        await dialog.waitFor();
        expect(await onScreen(dialog, page)).toBe(true);
        shots.push(await keepScreenshot(page, 'phone-users-allow-sign-in'));
        await dialog.getByRole('button', { name: 'Allow sign-in' }).tap();
        await eventually(async () => expect(await statusOf(page, 'hank-with-a-long-name')).toBe('Active'));
        await expectNoSidewaysScroll(page, 'users-after');
        expect((await h.svc.request('POST', '/api/login', { json: { User: 'hank-with-a-long-name', Pass: 'hank-password-1' } })).status).toBe(200);
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    );
  });
});
