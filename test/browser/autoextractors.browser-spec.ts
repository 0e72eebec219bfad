import { Page } from 'playwright-core';
import { ConsoleHarness, eventually, keepScreenshot, PHONE, rowsOf, runQuery, signIn, tableRows, Watched, withPage, goTo } from './harness';
import { expectNoSidewaysScroll } from './touch';

const PASS = 'extractor-password-1';
const STATUSES = ['200', '200', '200', '404', '500'];
const REGEX = String.raw`path=(?P<path>\S+) status=(?P<status>\d+)`;
const SAMPLE = 'method=GET path=/p1 status=404 bytes=120\nnot a web log line';

/** The Extractors page, its test pane and `ax` in the search page, as a person uses them. */
describe('console extractors (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let headers: Record<string, string>;

  beforeAll(async () => {
    await h.start();
    const analyst = await h.createUser('axanalyst', PASS);
    headers = analyst.headers;
    // 600 web entries over the last 50 minutes: 120 with status 404.
    await h.ingest(
      headers,
      'web',
      Array.from({ length: 600 }, (_, i) => ({ data: `method=GET path=/p${i % 7} status=${STATUSES[i % 5]} bytes=${100 + i}`, ageMs: i * 5000 + 1000 })),
    );
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the extractors page:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, path = '/search'): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, 'axanalyst', PASS);
    await w.page.getByRole('banner').waitFor();
  }

  const status = (page: Page) => page.locator('.status-row').getByRole('status').first();
  const go = (page: Page, link: string) => goTo(page, link);

  /** Runs `query` by hand and answers the rows of its results table. */
  async function resultsOf(page: Page, query: string): Promise<string[][]> {
    await runQuery(page, query);
    await eventually(async () => expect(await status(page).innerText()).toMatch(/ results? in /), 30000);
    return eventually(async () => {
      const rows = await tableRows(page, 'Results');
      expect(rows.length).toBe(7);
      return rows;
    }, 30000);
  }

  it('makes an extractor, tries it on a pasted sample (a refused regex in the service’s words first), runs ax with the answer of the module written out, edits and deletes it', () =>
    withPage(h, 'extractors-make-use', async (w) => {
      const { page } = w;
      await open(w);
      await go(page, 'Extractors');
      await page.getByRole('heading', { name: 'Extractors', level: 1 }).waitFor();
      await page.getByText('There are no extractors yet.', { exact: false }).waitFor();

      await page.getByRole('button', { name: 'New extractor' }).click();
      const dialog = page.getByRole('dialog', { name: 'New extractor' });
      await dialog.getByLabel('Tags').fill('web');
      await dialog.getByLabel('Module').selectOption('regex');
      expect(await dialog.getByText('A regular expression whose named groups').isVisible()).toBe(true);
      await dialog.getByLabel('Parameters').fill('path=(?P<path>\\S+');
      await dialog.getByLabel('Name').fill('weblog');
      await dialog.getByLabel('Sample').fill(SAMPLE);
      await dialog.getByRole('button', { name: 'Test' }).click();
      await eventually(async () => expect(await dialog.getByRole('alert').innerText()).toMatch(/^regex: invalid regular expression: missing closing \)/));
      await dialog.getByLabel('Parameters').fill(REGEX);
      await dialog.getByRole('button', { name: 'Test' }).click();
      await eventually(async () =>
        expect(await rowsOf(page, 'Extracted fields')).toEqual([
          ['method=GET path=/p1 status=404 bytes=120', 'path\n/p1\nstatus\n404'],
          ['not a web log line', 'No match: ax drops this entry.'],
        ]),
      );
      expect(await dialog.getByText('Extracts 2 fields').isVisible()).toBe(true);
      expect(await dialog.getByRole('alert').count()).toBe(0);
      await dialog.getByRole('table', { name: 'Extracted fields' }).scrollIntoViewIfNeeded();
      shots.push(await keepScreenshot(page, 'extractors-test-pane'));
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => expect(await page.getByRole('status').filter({ hasText: 'Saved' }).innerText()).toBe('Saved weblog.'));
      await eventually(async () => expect((await rowsOf(page, 'Extractors')).map((r) => r.slice(0, 4))).toEqual([['weblog', 'web', 'regex', REGEX]]));
      shots.push(await keepScreenshot(page, 'extractors'));

      // A second one for the same tag is refused: one per tag.
      await page.getByRole('button', { name: 'New extractor' }).click();
      await dialog.getByLabel('Tags').fill('web');
      await dialog.getByLabel('Parameters').fill('path');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await eventually(async () =>
        expect(await dialog.getByRole('alert').innerText()).toBe('The owner already has an autoextractor for tag web: only one per tag (change that one)'),
      );
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The filter finds it by tag and module.
      const filter = page.getByRole('searchbox', { name: 'Search the extractors' });
      for (const [text, n] of [
        ['web', 1],
        ['regex', 1],
        ['nothing-like-this', 0],
      ] as const) {
        await filter.fill(text);
        await eventually(async () => expect(await page.getByRole('table', { name: 'Extractors' }).getByRole('rowheader').count()).toBe(n));
      }
      await filter.fill('');

      // ax gives what the module written out gives.
      await go(page, 'Search');
      const withAx = await resultsOf(page, 'tag=web ax status=="404" path | count by path | table path count');
      const writtenOut = await resultsOf(page, `tag=web regex "${REGEX}" status=="404" | count by path | table path count`);
      expect(withAx).toEqual(writtenOut);
      expect(withAx.reduce((n, r) => n + Number(r[1]), 0)).toBe(120);

      // Edit: the kv module instead; ax follows.
      await go(page, 'Extractors');
      await page.getByRole('button', { name: 'Edit weblog' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit weblog' });
      expect(await edit.getByLabel('Parameters').inputValue()).toBe(REGEX);
      await edit.getByLabel('Module').selectOption('kv');
      await edit.getByLabel('Parameters').fill('path status bytes');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached' });
      await eventually(async () => expect((await rowsOf(page, 'Extractors')).map((r) => r.slice(0, 4))).toEqual([['weblog', 'web', 'kv', 'path status bytes']]));
      await go(page, 'Search');
      expect(await resultsOf(page, 'tag=web ax status=="404" path | count by path | table path count')).toEqual(writtenOut);

      // Delete, after confirming; ax on the tag is then a clear error.
      await go(page, 'Extractors');
      await page.getByRole('button', { name: 'Delete weblog' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete extractor' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('There are no extractors yet.', { exact: false }).waitFor();
      expect((await h.svc.request('GET', '/api/autoextractors', { headers })).body).toEqual([]);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('fits the Extractors page, its dialog and the test pane into 390 px', () =>
    withPage(
      h,
      'extractors-phone',
      async (w) => {
        const { page } = w;
        const long = {
          Tag: 'web',
          Tags: ['apache-access-logs-from-the-frontend-servers'],
          Name: 'Apache combined access log with referrer and user agent',
          Desc: 'Requests to the frontend servers, one line each',
          Module: 'regex',
          Params: String.raw`^(?P<ip>\S+) (?P<ident>\S+) (?P<auth>\S+) \[(?P<date>[^\]]+)\] "(?P<method>\S+) (?P<url>.+) HTTP\/(?P<version>\S+)" (?P<response>\d+) (?P<bytes>\d+)`,
          Labels: ['web', 'apache'],
        };
        expect((await h.svc.request('POST', '/api/autoextractors', { headers, json: long })).status).toBe(200);
        await open(w);
        await goTo(page, 'Extractors', { touch: true });
        await page.getByRole('table', { name: 'Extractors' }).getByText(long.Name).waitFor();
        await expectNoSidewaysScroll(page, 'extractors');
        shots.push(await keepScreenshot(page, 'phone-extractors'));
        await page.getByRole('button', { name: `Edit ${long.Name}` }).tap();
        const edit = page.getByRole('dialog', { name: `Edit ${long.Name}` });
        await edit.getByLabel('Sample').fill('10.1.2.3 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326');
        await edit.getByRole('button', { name: 'Test' }).tap();
        await eventually(async () => expect((await rowsOf(page, 'Extracted fields'))[0][1]).toContain('/apache_pb.gif'));
        await edit.getByRole('table', { name: 'Extracted fields' }).scrollIntoViewIfNeeded();
        await expectNoSidewaysScroll(page, 'extractors-edit');
        shots.push(await keepScreenshot(page, 'phone-extractors-edit'));
        await edit.getByRole('button', { name: 'Cancel' }).tap();
        await edit.waitFor({ state: 'detached' });
        await h.svc.request('DELETE', `/api/autoextractors/${((await h.svc.request('GET', '/api/autoextractors', { headers })).body as Array<{ UUID: string }>)[0].UUID}`, {
          headers,
        });
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
