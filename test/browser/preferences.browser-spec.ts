import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, keepScreenshot, runQuery, signIn, Watched, withPage } from './harness';

const DARK_BG = 'rgb(21, 24, 30)';
const LIGHT_BG = 'rgb(245, 246, 248)';

/** The console's settings: applied at once, kept in the user's preferences blob, so they follow the person. */
describe('console preferences (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let uid: number;
  let headers: Record<string, string>;

  beforeAll(async () => {
    await h.start();
    ({ uid, headers } = await h.createUser('analyst', 'analyst-password-1'));
    // Another client's settings live in the same blob and must survive.
    expect((await h.svc.request('PUT', `/api/users/${uid}/preferences`, { headers, json: { otherClient: { layout: 'compact' } } })).status).toBe(200);
    await h.ingest(
      headers,
      'web',
      Array.from({ length: 60 }, (_, i) => ({ data: `n=${i}`, ageMs: i * 10_000 + 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the preferences page:\n${shots.join('\n')}\n`);
  });

  const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme ?? null);

  async function open(w: Watched): Promise<void> {
    await w.page.goto('/preferences');
    await signIn(w.page, 'analyst', 'analyst-password-1');
    await w.page.getByRole('heading', { name: 'Preferences' }).waitFor();
  }

  async function expectShown(page: Page): Promise<void> {
    await eventually(async () => expect(await page.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true));
    expect(await page.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('UTC');
    expect(await page.getByRole('combobox', { name: 'Default time range' }).inputValue()).toBe('4h');
    expect(await page.getByRole('combobox', { name: 'Page size' }).inputValue()).toBe('25');
    expect(await theme(page)).toBe('dark');
    expect(await background(page)).toBe(DARK_BG);
  }

  it('applies the theme at once and keeps theme, zone, range and page size across a reload and in another browser', () =>
    withPage(h, 'preferences-persist', async (w) => {
      const { page } = w;
      await page.emulateMedia({ colorScheme: 'light' });
      await open(w);
      expect(await page.getByRole('radio', { name: 'System' }).isChecked()).toBe(true);
      expect(await background(page)).toBe(LIGHT_BG);

      await page.getByRole('radio', { name: 'Dark' }).check();
      await eventually(async () => expect(await background(page)).toBe(DARK_BG), 1000);
      const saved = page.getByRole('status').filter({ hasText: 'Saved' });
      await eventually(async () => expect(await saved.innerText()).toBe('Saved. These settings follow you to any browser you sign in from.'));
      await page.getByRole('combobox', { name: 'Time zone' }).selectOption('UTC');
      await page.getByRole('combobox', { name: 'Default time range' }).selectOption({ label: 'Last 4 hours' });
      await page.getByRole('combobox', { name: 'Page size' }).selectOption({ label: '25 rows' });
      await eventually(async () => {
        const blob = (await h.svc.request('GET', `/api/users/${uid}/preferences`, { headers })).body;
        expect(blob).toEqual({ otherClient: { layout: 'compact' }, console: { theme: 'dark', timeZone: 'UTC', defaultRange: '4h', pageSize: 25 } });
      });
      shots.push(await keepScreenshot(page, 'preferences'));

      await page.reload();
      await page.getByRole('heading', { name: 'Preferences' }).waitFor();
      await expectShown(page);

      // Another browser (no cookies, no storage): the settings come from the service.
      const other = await h.page();
      try {
        await other.page.emulateMedia({ colorScheme: 'light' });
        await open(other);
        await expectShown(other.page);
        await other.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search', exact: true }).click();
        expect(await other.page.getByRole('button', { name: /^Time range: / }).getAttribute('aria-label')).toBe('Time range: Last 4 hours');
        await runQuery(other.page, 'tag=web kv n | table n');
        await other.page.getByRole('navigation', { name: 'Table pages' }).getByText('Page 1 of 3 (60 rows)').waitFor();
        expect(await other.page.getByRole('table', { name: 'Results' }).getByRole('row').count()).toBe(26);
        expect(await h.problemsOf(other)).toEqual([]);
      } finally {
        await other.page.context().close();
      }

      // Back to the system's theme: a dark system now shows dark, a light one light.
      await page.getByRole('radio', { name: 'System' }).check();
      await eventually(async () => expect(await theme(page)).toBe(null), 1000);
      expect(await background(page)).toBe(LIGHT_BG);
      await page.emulateMedia({ colorScheme: 'dark' });
      await eventually(async () => expect(await background(page)).toBe(DARK_BG), 1000);

      await page.getByRole('button', { name: 'Reset to defaults' }).click();
      await eventually(async () => {
        const blob = (await h.svc.request('GET', `/api/users/${uid}/preferences`, { headers })).body;
        expect(blob).toEqual({ otherClient: { layout: 'compact' }, console: { theme: 'system', timeZone: 'local', defaultRange: '1h', pageSize: 100 } });
      });
      expect(await page.getByRole('combobox', { name: 'Page size' }).inputValue()).toBe('100');
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('stores nothing and sends the person to sign in when the session ended before a change', () =>
    withPage(h, 'preferences-refused', async (w) => {
      const { page } = w;
      await open(w);
      await eventually(async () => expect(await page.getByRole('radio', { name: 'System' }).isChecked()).toBe(true));
      // The account is locked while the page is open: the next save is refused and the session ends.
      expect((await h.svc.request('PUT', `/api/users/${uid}/lock`, { headers: h.admin })).status).toBe(200);
      try {
        await page.getByRole('radio', { name: 'Light' }).click();
        await page.waitForURL('**/login');
        expect(await page.getByRole('status').innerText()).toMatch(/^Your session has ended/);
      } finally {
        expect((await h.svc.request('DELETE', `/api/users/${uid}/lock`, { headers: h.admin })).status).toBe(200);
      }
      const blob = (await h.svc.request('GET', `/api/users/${uid}/preferences`, { headers: await h.svc.login('analyst', 'analyst-password-1') })).body as {
        console: { theme: string };
      };
      expect(blob.console.theme).toBe('system');
    }));

  it('keeps a theme picked while the settings are still loading', () =>
    withPage(h, 'preferences-early-pick', async (w) => {
      const { page } = w;
      // A slow network: the first read of the settings (the blob before the change) arrives only after the change is saved.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let reads = 0;
      await page.route('**/api/users/*/preferences', async (route) => {
        if (route.request().method() === 'PUT') {
          await route.fulfill({ response: await route.fetch() });
          return release();
        }
        if (reads++ > 0) return route.continue();
        const response = await route.fetch();
        await held;
        await route.fulfill({ response });
      });
      await page.goto('/preferences');
      await signIn(page, 'analyst', 'analyst-password-1');
      await page.getByText('Loading your settings…').waitFor();
      await page.getByRole('radio', { name: 'Dark' }).check();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await page.getByText('Loading your settings…').waitFor({ state: 'detached' });
      expect(await page.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
      expect(await theme(page)).toBe('dark');
      const fresh = await h.svc.login('analyst', 'analyst-password-1');
      const blob = (await h.svc.request('GET', `/api/users/${uid}/preferences`, { headers: fresh })).body as { otherClient: unknown; console: { theme: string } };
      expect(blob.console.theme).toBe('dark');
      expect(blob.otherClient).toEqual({ layout: 'compact' });
      expect(await h.problemsOf(w)).toEqual([]);
    }));
});
