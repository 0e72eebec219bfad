import { ConsoleHarness, eventually, signIn, withPage } from './harness';

/** Signing in and out as a person does, and what a person sees when their session ends. */
describe('console sign-in (browser)', () => {
  const h = new ConsoleHarness();
  let aliceUid: number;

  beforeAll(async () => {
    await h.start();
    aliceUid = (await h.createUser('alice', 'alice-password-1')).uid;
    const bob = await h.createUser('bob', 'bob-password-1');
    const lock = await h.svc.request('PUT', `/api/users/${bob.uid}/lock`, { headers: h.admin });
    expect(lock.status).toBe(200);
    await h.createUser('carol', 'carol-password-1');
  });
  afterAll(() => h.stop());

  it('signs in with the right password, keeps the JWT in an HttpOnly cookie only, and opens the search page', () =>
    withPage(h, 'sign-in-good', async (w) => {
      const { page } = w;
      await page.goto('/');
      await page.waitForURL('**/login');
      await signIn(page, 'alice', 'alice-password-1');
      await page.getByRole('textbox', { name: 'Query' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/search');
      await page.getByText('alice tester').click();
      expect(await page.getByRole('group', { name: 'Account' }).getByText('Signed in as').innerText()).toBe('Signed in as alice');
      const cookies = await page.context().cookies();
      const session = cookies.find((c) => c.name === 'console_session');
      expect(session).toEqual(expect.objectContaining({ httpOnly: true, sameSite: 'Strict', path: '/api' }));
      expect(session!.value).toMatch(/^eyJ/);
      const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }));
      expect(stored).not.toContain('eyJ');
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('says so when the password is wrong', () =>
    withPage(h, 'sign-in-bad', async ({ page }) => {
      await page.goto('/login');
      await signIn(page, 'alice', 'not-her-password');
      expect(await page.getByRole('alert').innerText()).toBe('Wrong username or password.');
      expect(new URL(page.url()).pathname).toBe('/login');
    }));

  it('says so when the account is locked', () =>
    withPage(h, 'sign-in-locked', async ({ page }) => {
      await page.goto('/login');
      await signIn(page, 'bob', 'bob-password-1');
      expect(await page.getByRole('alert').innerText()).toBe('This account is locked. Ask an administrator to unlock it.');
    }));

  it('says when to try again after too many failed sign-ins', () =>
    withPage(h, 'sign-in-rate-limited', async ({ page }) => {
      await page.goto('/login');
      for (let i = 0; i < 5; i++) {
        await signIn(page, 'carol', `wrong-${i}`);
        await eventually(async () => expect(await page.getByRole('alert').innerText()).toBe('Wrong username or password.'));
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
      }
      await signIn(page, 'carol', 'carol-password-1');
      await eventually(async () => expect(await page.getByRole('alert').innerText()).toMatch(/^Too many failed sign-ins\. Try again in \d+ minutes?\.$/));
    }));

  it('signs out of this session only, or of every session', () =>
    withPage(h, 'sign-out', async ({ page }) => {
      const other = await h.page();
      try {
        for (const p of [page, other.page]) {
          await p.goto('/search');
          await signIn(p, 'alice', 'alice-password-1');
          await p.getByRole('textbox', { name: 'Query' }).waitFor();
        }
        await page.getByText('alice tester').click();
        await page.getByRole('button', { name: 'Sign out', exact: true }).click();
        expect(await page.getByRole('status').innerText()).toBe('You have signed out.');
        // The other browser is still signed in.
        await other.page.reload();
        await other.page.getByRole('textbox', { name: 'Query' }).waitFor();

        await signIn(page, 'alice', 'alice-password-1');
        await page.getByText('alice tester').click();
        await page.getByRole('button', { name: 'Sign out everywhere' }).click();
        expect(await page.getByRole('status').innerText()).toBe('You have signed out of every session.');
        await other.page.reload();
        await other.page.waitForURL('**/login');
        expect(await other.page.getByRole('status').innerText()).toMatch(/^Your session has ended/);
      } finally {
        await other.page.context().close();
      }
    }));

  it('sends a person whose session was revoked to the sign-in page with a message, and back after signing in', () =>
    withPage(h, 'revoked-session', async (w) => {
      const { page } = w;
      // The editor checks the query it opens with (POST /api/parse) once the page is up: wait for
      // that answer, or on a loaded machine it is what meets the ended session, before the click.
      const checked = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/parse');
      await page.goto('/search?q=tag%3Dnothing&t=15m');
      await signIn(page, 'alice', 'alice-password-1');
      await page.getByRole('textbox', { name: 'Query' }).waitFor();
      await checked;
      // An administrator locks the account: every session ends at once.
      expect((await h.svc.request('PUT', `/api/users/${aliceUid}/lock`, { headers: h.admin })).status).toBe(200);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL('**/login');
      expect(await page.getByRole('status').innerText()).toBe('Your session has ended: it expired, was signed out elsewhere, or the account was locked. Sign in again.');
      expect((await h.svc.request('DELETE', `/api/users/${aliceUid}/lock`, { headers: h.admin })).status).toBe(200);
      await signIn(page, 'alice', 'alice-password-1');
      await page.waitForURL('**/search?**');
      expect(new URL(page.url()).searchParams.get('q')).toBe('tag=nothing');
      expect(new URL(page.url()).searchParams.get('t')).toBe('15m');
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
