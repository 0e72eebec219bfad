import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, keepScreenshot, PHONE, signIn, Watched, withPage, goTo } from './harness';
import { expectNoSidewaysScroll } from './touch';

const PASS = 'scheduled-password-1';
const QUERY = 'tag=web count';

/** Automation › Scheduled searches as a person uses it: make one, run it now, see the run, open its results. */
describe('console scheduled searches (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let headers: Record<string, string>;

  beforeAll(async () => {
    await h.start({ SCHEDULER_TICK_MS: '300' });
    const analyst = await h.createUser('planner', PASS);
    headers = analyst.headers;
    // 240 web entries over the last 40 minutes: a run over the last hour counts them all.
    await h.ingest(
      headers,
      'web',
      Array.from({ length: 240 }, (_, i) => ({ data: `status=200 path=/p${i % 5}`, ageMs: i * 10_000 + 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the scheduled searches page:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched): Promise<void> {
    await w.page.goto('/search');
    await signIn(w.page, 'planner', PASS);
    await w.page.getByRole('banner').waitFor();
  }

  const note = (page: Page) => page.getByRole('status').first();

  it('makes a scheduled search with the next run times in words, runs it now, sees the run with its duration and opens its results', () =>
    withPage(h, 'scheduled-make-run', async (w) => {
      const { page } = w;
      await open(w);
      await goTo(page, 'Scheduled searches');
      await page.getByRole('heading', { name: 'Scheduled searches', level: 1 }).waitFor();
      await page.getByText('There are no scheduled searches yet.', { exact: false }).waitFor();

      await page.getByRole('button', { name: 'New scheduled search' }).click();
      const dialog = page.getByRole('dialog', { name: 'New scheduled search' });
      await dialog.getByLabel('Name').fill('Web requests per hour');
      await dialog.getByLabel('Description').fill('How many web requests came in');
      await dialog.getByLabel('Query').fill(QUERY);
      // A schedule with seconds is refused, in the service's words, as it is typed.
      const schedule = dialog.getByRole('textbox', { name: 'Schedule' });
      await schedule.fill('* * * * * *');
      await eventually(async () => expect(await dialog.getByRole('alert').innerText()).toContain('6 fields; a schedule has five'));
      await schedule.fill('30 8 * * 1-5');
      await eventually(async () =>
        expect(await dialog.locator('.schedule-preview').innerText()).toMatch(/^At 08:30, Monday through Friday \(UTC\)\.\n+Next runs: .+\(in .+\), .+\(in .+\), .+\(in .+\)$/),
      );
      shots.push(await keepScreenshot(page, 'scheduled-new'));
      await dialog.getByLabel('Each run searches the last').selectOption({ label: '1 hour' });
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await note(page).innerText()).toBe('Saved “Web requests per hour”.');
      const row = page.getByRole('table', { name: 'Scheduled searches' }).getByRole('row').filter({ hasText: 'Web requests per hour' });
      expect(await row.innerText()).toContain('At 08:30, Monday through Friday');
      expect(await row.innerText()).toContain('Never');

      // Run now: asked once, then the run shows in its history.
      await page.getByRole('button', { name: 'Run Web requests per hour now' }).click();
      const ask = page.getByRole('dialog', { name: 'Run now' });
      expect(await ask.innerText()).toContain('Run “Web requests per hour” once now, over the last 1 hour?');
      await ask.getByRole('button', { name: 'Run now' }).click();
      await ask.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Runs of Web requests per hour' }).click();
      const runs = page.getByRole('dialog', { name: 'Runs of “Web requests per hour”' });
      // The person looks again (Refresh) until the run is done.
      const table = runs.getByRole('table', { name: 'Runs of Web requests per hour' });
      await eventually(async () => {
        await runs.getByRole('button', { name: 'Refresh' }).click();
        expect(await table.getByRole('row').nth(1).innerText()).toMatch(/\nrun now\n\t.+\t[\d.]+ (ms|s)\tDone\tOpen results/);
      }, 60_000);
      shots.push(await keepScreenshot(page, 'scheduled-runs'));
      await runs.getByRole('link', { name: /^Open the results of the run due at/ }).click();
      await page.waitForURL(/\/search\?id=/);
      await eventually(async () => expect(await page.locator('main').innerText()).toContain('240'), 30_000);
      shots.push(await keepScreenshot(page, 'scheduled-results'));

      // Back on the list: the last run, how long it took.
      await goTo(page, 'Scheduled searches');
      await eventually(async () => expect(await row.innerText()).toMatch(/took [\d.]+ (ms|s)/));
      shots.push(await keepScreenshot(page, 'scheduled-list'));
      const listed = (await h.svc.request('GET', '/api/scheduledsearches', { headers })).body as Array<{ LastSearchIDs: string[]; Schedule: string; Duration: number }>;
      expect(listed).toEqual([expect.objectContaining({ Schedule: '30 8 * * 1-5', Duration: -3600, LastSearchIDs: [expect.any(String)] })]);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('fits the page, its dialog and the runs into 390 px', () =>
    withPage(
      h,
      'scheduled-phone',
      async (w) => {
        const { page } = w;
        await open(w);
        await goTo(page, 'Scheduled searches', { touch: true });
        await page.getByRole('table', { name: 'Scheduled searches' }).getByText('Web requests per hour').waitFor();
        await expectNoSidewaysScroll(page, 'scheduled');
        shots.push(await keepScreenshot(page, 'phone-scheduled'));
        await page.getByRole('button', { name: 'Edit Web requests per hour' }).tap();
        const edit = page.getByRole('dialog', { name: 'Edit “Web requests per hour”' });
        await eventually(async () => expect(await edit.locator('.schedule-preview').innerText()).toContain('Next runs:'));
        await expectNoSidewaysScroll(page, 'scheduled-edit');
        shots.push(await keepScreenshot(page, 'phone-scheduled-edit'));
        await edit.getByRole('button', { name: 'Cancel' }).tap();
        await edit.waitFor({ state: 'detached' });
        await page.getByRole('button', { name: 'Runs of Web requests per hour' }).tap();
        const runs = page.getByRole('dialog', { name: 'Runs of “Web requests per hour”' });
        await runs.getByRole('link', { name: /^Open the results/ }).waitFor();
        await expectNoSidewaysScroll(page, 'scheduled-runs');
        shots.push(await keepScreenshot(page, 'phone-scheduled-runs'));
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
