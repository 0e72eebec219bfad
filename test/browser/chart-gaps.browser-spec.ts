import { ConsoleHarness, keepScreenshot, PHONE, runQuery, signIn, tableRows, Watched, withPage } from './harness';

const PASS = 'charts-password-1';
const MIN = 60_000;
/** Minutes ago with a request: two runs, and one minute alone between empty ones. */
const MINUTES = [3, 4, 5, 6, 7, 20, 30, 31, 32];
const QUERY = 'tag=web kv bytes | mean bytes over 1m | chart mean';

/** A chart over time windows some of which hold no entry: the service sends null there. */
describe('console charts with empty time windows (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];

  beforeAll(async () => {
    await h.start();
    const { headers } = await h.createUser('analyst', PASS);
    await h.ingest(
      headers,
      'web',
      MINUTES.map((m) => ({ data: `method=GET path=/p status=200 bytes=${100 + m}`, ageMs: m * MIN + 30_000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of charts with gaps:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched): Promise<void> {
    await w.page.goto('/search');
    await signIn(w.page, 'analyst', PASS);
    await w.page.getByRole('textbox', { name: 'Query' }).waitFor();
  }

  async function chartOfGaps(w: Watched): Promise<{ points: number; empty: number }> {
    await runQuery(w.page, QUERY);
    const chart = w.page.getByRole('img', { name: /^Line chart of mean over \d+ time points/ });
    await chart.waitFor();
    const [, points, empty] = /^Line chart of mean over (\d+) time points, (\d+) without a value$/.exec((await chart.getAttribute('aria-label')) ?? '') ?? [];
    return { points: Number(points), empty: Number(empty) };
  }

  it('says which windows have no value: in the chart’s description, and as “—” in its data', () =>
    withPage(h, 'chart-gaps', async (w) => {
      const { page } = w;
      await open(w);
      const { points, empty } = await chartOfGaps(w);
      expect(points).toBeGreaterThanOrEqual(60);
      expect(empty).toBe(points - MINUTES.length);
      await page.getByRole('button', { name: 'Show data' }).click();
      const rows = await tableRows(page, 'Chart data');
      expect(rows).toHaveLength(points);
      const values = rows.map((r) => r[1]).filter((v) => v !== '—');
      expect(values.map(Number).sort((a, b) => a - b)).toEqual(MINUTES.map((m) => 100 + m).sort((a, b) => a - b));
      expect(rows.filter((r) => r[1] === '—')).toHaveLength(empty);
      await page
        .getByRole('table', { name: 'Chart data' })
        .getByRole('cell', { name: String(100 + MINUTES[5]) })
        .scrollIntoViewIfNeeded();
      shots.push(await keepScreenshot(page, 'chart-gaps-data'));
      await page.getByRole('button', { name: 'Hide data' }).click();
      await page.waitForTimeout(500); // let the chart library paint before the picture
      shots.push(await keepScreenshot(page, 'chart-gaps'));
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('draws the same gaps on a phone', () =>
    withPage(
      h,
      'chart-gaps-phone',
      async (w) => {
        await open(w);
        await chartOfGaps(w);
        expect(await w.page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
        await w.page.waitForTimeout(500); // let the chart library paint before the picture
        shots.push(await keepScreenshot(w.page, 'phone-chart-gaps'));
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
