import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, runQuery, signIn, withPage } from './harness';

const MIN = 60_000;
/** Counted nested repetition: about 0.6 s per slow entry in V8 (searches.browser-spec.ts). */
const SLOW_QUERY = 'tag=slow regex "(?P<x>(a{1,30}){1,30}$)" | table x';

interface Summary {
  ID: string;
  UserQuery: string;
  State: string;
  AttachedClients: number;
}

/**
 * Where a session ends: signing out leaves the page's searches first (while the session can),
 * and a session that ends while someone types keeps their query for after they sign in again.
 */
describe('console at the end of a session (browser)', () => {
  const h = new ConsoleHarness();

  beforeAll(async () => {
    // Sessions that stop pinging are detached after 120 s, not 10: only a detach clears "open in 1 page" in time.
    await h.start({ SEARCH_TIMEOUT_MS: '120000', SEARCH_PING_TIMEOUT_SECONDS: '120' });
    const { headers } = await h.createUser('analyst', 'analyst-password-1');
    await h.createUser('carol', 'carol-password-1');
    await h.ingest(headers, 'slow', [
      ...['a', 'aa', 'aaa'].map((data, i) => ({ data, ageMs: MIN + i * 1000 })),
      ...Array.from({ length: 8 }, (_, i) => ({ data: `${'a'.repeat(23)}!`, ageMs: 2 * MIN + i * 1000 })),
    ]);
  });
  afterAll(() => h.stop());

  /** Analyst's searches, read with a new sign-in (signing out everywhere ends the earlier ones). */
  async function searches(): Promise<Summary[]> {
    const headers = await h.svc.login('analyst', 'analyst-password-1');
    return (await h.svc.request('GET', '/api/searchctrl', { headers })).body as Summary[];
  }

  async function deleteSearches(): Promise<void> {
    const headers = await h.svc.login('analyst', 'analyst-password-1');
    for (const s of (await h.svc.request('GET', '/api/searchctrl', { headers })).body as Summary[]) await h.svc.request('DELETE', `/api/searchctrl/${s.ID}`, { headers });
  }

  it.each([
    ['Sign out', 'You have signed out.'],
    ['Sign out everywhere', 'You have signed out of every session.'],
  ])('"%s" detaches the search page from its backgrounded search before the session ends', (button, notice) =>
    withPage(h, `sign-out-detaches-${button}`, async (w) => {
      const { page } = w;
      await deleteSearches();
      await page.goto('/search');
      await signIn(page, 'analyst', 'analyst-password-1');
      await runQuery(page, SLOW_QUERY);
      const status = page.locator('.status-row').getByRole('status').first();
      await eventually(async () => expect(await status.innerText()).toMatch(/^Searching… /));
      await page.getByRole('button', { name: 'Send to background' }).click();
      await page.getByText('The search goes on in the background.').waitFor();
      const [mine] = await searches();
      expect(mine).toEqual(expect.objectContaining({ UserQuery: SLOW_QUERY, State: expect.stringMatching(/BACKGROUNDED/), AttachedClients: 1 }));

      await page.getByText('analyst tester').click();
      await page.getByRole('button', { name: button, exact: true }).click();
      await page.waitForURL('**/login');
      expect(await page.getByRole('status').innerText()).toBe(notice);
      // The page left the search before the session ended: nobody holds it, it goes on.
      const [after] = await searches();
      expect(after).toEqual(expect.objectContaining({ ID: mine.ID, AttachedClients: 0, State: expect.stringMatching(/BACKGROUNDED/) }));

      await signIn(page, 'analyst', 'analyst-password-1');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Persistent searches' }).click();
      const row = page
        .getByRole('table', { name: 'Persistent searches' })
        .getByRole('row')
        .filter({ hasText: `ID ${mine.ID}` });
      await eventually(async () => {
        const state = (await row.getByRole('cell').nth(1).innerText()).trim();
        expect(state).toMatch(/BACKGROUNDED\n(running|finished), kept in the background, (.*, )?not open anywhere$/);
      });
      expect(await h.problemsOf(w)).toEqual([]);
    }),
  );

  /** Types into the editor without running (Escape closes a completion list). */
  async function typeQuery(page: Page, text: string): Promise<void> {
    await page.getByRole('textbox', { name: 'Query' }).click();
    await page.keyboard.insertText(text);
    await page.keyboard.press('Escape');
  }

  /** Ends every session of analyst from elsewhere: a second sign-in signs out everywhere. */
  async function revokeSessions(): Promise<void> {
    const other = await h.svc.login('analyst', 'analyst-password-1');
    expect((await h.svc.request('DELETE', '/api/logout', { headers: other })).status).toBe(200);
  }

  it('keeps the query being typed and its time range when the session ends, and gives them back after signing in', () =>
    withPage(h, 'draft-after-session-end', async (w) => {
      const { page } = w;
      await page.goto('/search?q=tag%3Dslow&t=15m');
      await signIn(page, 'analyst', 'analyst-password-1');
      const editor = page.getByRole('textbox', { name: 'Query' });
      await eventually(async () => expect(await editor.innerText()).toBe('tag=slow'));
      await page.getByRole('button', { name: 'Time range: Last 15 minutes' }).click();
      await page.getByRole('dialog', { name: 'Time range' }).getByRole('button', { name: 'Last 4 hours' }).click();
      await typeQuery(page, ' grep "not run yet"');

      await revokeSessions();
      await typeQuery(page, ' | table'); // the parse as the person types gets a 401
      await page.waitForURL('**/login');
      expect(await page.getByRole('status').innerText()).toBe('Your session has ended: it expired, was signed out elsewhere, or the account was locked. Sign in again.');
      const kept = await page.evaluate(() => sessionStorage.getItem('console.searchDraft'));
      expect(JSON.parse(kept!)).toEqual({ user: 'analyst', query: 'tag=slow grep "not run yet" | table', range: 't=4h', at: expect.any(Number) });
      expect(kept).not.toContain('eyJ');

      await signIn(page, 'analyst', 'analyst-password-1');
      await page.waitForURL('**/search?**');
      await eventually(async () => expect(await editor.innerText()).toBe('tag=slow grep "not run yet" | table'));
      expect(await page.getByRole('button', { name: /^Time range: / }).getAttribute('aria-label')).toBe('Time range: Last 4 hours');
      // Given back once: a reload shows what the URL says.
      expect(await page.evaluate(() => sessionStorage.getItem('console.searchDraft'))).toBeNull();
      await page.reload();
      await eventually(async () => expect(await editor.innerText()).toBe('tag=slow'));
      expect(await page.getByRole('button', { name: /^Time range: / }).getAttribute('aria-label')).toBe('Time range: Last 15 minutes');
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it("does not give one person's kept query to someone else signing in at the same tab", () =>
    withPage(h, 'draft-other-user', async (w) => {
      const { page } = w;
      await page.goto('/search');
      await signIn(page, 'analyst', 'analyst-password-1');
      await typeQuery(page, 'tag=slow grep "analyst only"');
      await revokeSessions();
      await typeQuery(page, ' | table');
      await page.waitForURL('**/login');
      expect(await page.evaluate(() => sessionStorage.getItem('console.searchDraft'))).toContain('analyst only');

      await signIn(page, 'carol', 'carol-password-1');
      await page.waitForURL('**/search');
      const editor = page.getByRole('textbox', { name: 'Query' });
      await editor.waitFor();
      expect(await editor.innerText()).not.toContain('analyst only');
      expect(await page.getByRole('button', { name: 'Search', exact: true }).isDisabled()).toBe(true);
      expect(await page.evaluate(() => sessionStorage.getItem('console.searchDraft'))).toBeNull();
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
