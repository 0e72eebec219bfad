import { Locator, Page } from 'playwright-core';
import { deflateSync } from 'node:zlib';
import { ConsoleHarness, eventually, keepScreenshot, PHONE, rowsOf, signIn, tableRows, Watched, withPage, goTo } from './harness';
import { expectNoSidewaysScroll } from './touch';

const PASS = 'playbook-password-1';
const STATUSES = ['200', '200', '200', '404', '500'];
const QUERY = 'tag=web grep "status=404" | kv path | count by path | table path count';
/**
 * What a hostile author might put in a playbook: it must show as the characters typed and run nothing. Inside a
 * paragraph, so that the link is read as markdown too (a line that starts with a tag is an HTML block, shown as typed).
 */
const HOSTILE = 'Beware <script>alert("owned")</script> <img src=x onerror=alert(2)> [click me](javascript:alert(3))';

/** A `w` x `h` PNG of one colour (what a person would attach: a real picture file). */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const byte of b) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The Playbooks page, the editor with its live preview, and queries run in place, as a person uses them. */
describe('console playbooks (browser)', () => {
  const h = new ConsoleHarness();
  const shots: string[] = [];
  let headers: Record<string, string>;
  let opsGid: number;
  let expected: string[][];

  beforeAll(async () => {
    await h.start();
    const analyst = await h.createUser('analyst', PASS);
    await h.createUser('colleague', PASS);
    await h.createUser('outsider', PASS);
    headers = analyst.headers;
    const made = await h.svc.request('POST', '/api/groups', { headers: h.admin, json: { Name: 'ops', Desc: 'ops people' } });
    expect(made.status).toBe(200);
    opsGid = made.body as number;
    const users = (await h.svc.request('GET', '/api/users', { headers: h.admin })).body as Array<{ UID: number; User: string }>;
    for (const u of users.filter((x) => ['analyst', 'colleague'].includes(x.User))) {
      expect((await h.svc.request('POST', `/api/users/${u.UID}/group`, { headers: h.admin, json: { GIDs: [opsGid] } })).status).toBe(200);
    }
    // 300 web entries over the last 25 minutes: 60 with status 404, over 7 paths.
    await h.ingest(
      headers,
      'web',
      Array.from({ length: 300 }, (_, i) => ({ data: `method=GET path=/p${i % 7} status=${STATUSES[i % 5]}`, ageMs: i * 5000 + 1000 })),
    );
    const direct = await h.svc.request('POST', '/api/search/direct', {
      headers,
      json: { SearchString: QUERY, SearchStart: new Date(Date.now() - 3600_000).toISOString(), SearchEnd: new Date().toISOString(), Format: 'csv' },
    });
    expect(direct.status).toBe(200);
    expected = String(direct.text)
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',').map((c) => c.trim()))
      .sort();
    expect(expected.reduce((n, r) => n + Number(r[1]), 0)).toBe(60);
  });
  afterAll(async () => {
    await h.stop();
    if (shots.length) process.stdout.write(`screenshots of the playbooks pages:\n${shots.join('\n')}\n`);
  });

  async function open(w: Watched, user: string, path = '/search'): Promise<void> {
    await w.page.goto(path);
    await signIn(w.page, user, PASS);
    await w.page.getByRole('banner').waitFor();
  }

  const go = (page: Page, link: string) => goTo(page, link);

  /** Runs the playbook's first query in place and answers the rows of its results table, sorted. */
  async function runFirstQuery(page: Page): Promise<string[][]> {
    await page.getByRole('button', { name: 'Run Query 1' }).click();
    const results = page.getByRole('region', { name: 'Results of Query 1' });
    await results.getByRole('table', { name: 'Results' }).waitFor({ timeout: 30000 });
    return eventually(async () => {
      const rows = await tableRows(page, 'Results');
      expect(rows.length).toBe(7);
      return rows.sort();
    }, 30000);
  }

  /** The image's picture has loaded (a broken or blocked image has no natural width). */
  const imageLoaded = (scope: Locator) =>
    eventually(async () => expect(await scope.getByRole('img', { name: 'mouse' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160));

  it('writes a playbook with a heading, an embedded query and an image, sees the preview, saves, reopens and runs the query in place; a group member reads it too', () =>
    withPage(h, 'playbooks-write-run', async (w) => {
      const { page } = w;
      await open(w, 'analyst');
      await go(page, 'Playbooks');
      await page.getByRole('heading', { name: 'Playbooks', level: 1 }).waitFor();
      await page.getByText('There are no playbooks yet.', { exact: false }).waitFor();

      await page.getByRole('button', { name: 'New playbook' }).click();
      await page.getByRole('heading', { name: 'New playbook', level: 1 }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Web errors');
      await page.getByLabel('Description').fill('Where the 404s come from');
      await page.getByLabel('Labels').fill('web, triage');
      const source = page.getByRole('textbox', { name: 'Markdown' });
      await source.fill(`# Not found, by path\n\nRun the query, then look at the **busiest** path.\n\n${HOSTILE}\n\n\`\`\`\n${QUERY}\n\`\`\`\n`);
      // The image: a picture file the person picks; it becomes a user file and its markdown goes where the cursor is.
      await source.press('Control+End');
      await page.getByLabel('Attach image').setInputFiles({ name: 'mouse.png', mimeType: 'image/png', buffer: png(160, 90, [40, 120, 200]) });
      await eventually(async () =>
        expect(await page.getByRole('status').filter({ hasText: 'Attached' }).innerText()).toBe('Attached mouse.png (a user file, shared like the playbook).'),
      );
      expect(await source.inputValue()).toMatch(/\n\n!\[mouse\]\(\/api\/files\/[0-9a-f-]{36}\)\n$/);
      // The picture was attached while the playbook was the person's alone; sharing the playbook with ops on save shares it too.
      const [file] = (await h.svc.request('GET', '/api/files', { headers })).body as Array<{ GUID: string; GIDs: number[] }>;
      expect(file.GIDs).toEqual([]);
      await page.getByRole('checkbox', { name: 'ops' }).check();

      // The preview follows the text as it is typed.
      const preview = page.getByRole('region', { name: 'Preview' });
      await preview.getByRole('heading', { name: 'Not found, by path' }).waitFor();
      expect(await preview.getByRole('strong').innerText()).toBe('busiest');
      await preview.getByText(HOSTILE.replace('[click me](javascript:alert(3))', 'click me')).waitFor();
      expect(await preview.getByRole('link', { name: 'click me' }).count()).toBe(0);
      expect(await preview.getByRole('region', { name: 'Query 1' }).locator('code').innerText()).toBe(QUERY);
      await imageLoaded(preview);
      await source.press('Control+End');
      await page.keyboard.type('\n## Next steps\n');
      await preview.getByRole('heading', { name: 'Next steps' }).waitFor();
      shots.push(await keepScreenshot(page, 'playbook-editor'));

      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: 'Web errors', level: 1 }).waitFor();
      const saved = (await h.svc.request('GET', '/api/playbooks', { headers })).body as Array<{ UUID: string; Name: string; GIDs: number[]; Labels: string[] }>;
      expect(saved).toEqual([expect.objectContaining({ Name: 'Web errors', Desc: 'Where the 404s come from', GIDs: [opsGid], Labels: ['web', 'triage'] })]);
      expect(saved[0]).not.toHaveProperty('Body');
      expect((await h.svc.request('GET', `/api/files/${file.GUID}/details`, { headers })).body).toMatchObject({ GIDs: [opsGid] });

      // Reopen it from the list, and run the query in place.
      await go(page, 'Playbooks');
      await eventually(async () => expect((await rowsOf(page, 'Playbooks')).map((r) => r.slice(0, 3))).toEqual([['Web errors\nWhere the 404s come from', 'web\ntriage', 'ops']]));
      await page.getByRole('link', { name: 'Web errors' }).click();
      const article = page.getByRole('article');
      await article.getByRole('heading', { name: 'Not found, by path', level: 2 }).waitFor();
      await article.getByRole('heading', { name: 'Next steps', level: 3 }).waitFor();
      await article.getByText(HOSTILE.replace('[click me](javascript:alert(3))', 'click me')).waitFor();
      await imageLoaded(article);
      expect(await runFirstQuery(page)).toEqual(expected);
      shots.push(await keepScreenshot(page, 'playbook-view'));
      expect(page.url()).toMatch(/\/playbooks\/[0-9a-f-]{36}$/);
      const url = new URL(page.url()).pathname;
      expect(await h.problemsOf(w)).toEqual([]);

      // A member of ops reads it, with its image (shared like the playbook), and runs the query; someone outside ops cannot open it.
      await withPage(h, 'playbooks-member', async (m) => {
        await open(m, 'colleague', url);
        await m.page.getByRole('heading', { name: 'Web errors', level: 1 }).waitFor();
        expect(await m.page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
        await imageLoaded(m.page.getByRole('article'));
        expect(await runFirstQuery(m.page)).toEqual(expected);
        expect(await h.problemsOf(m)).toEqual([]);
      });
      await withPage(h, 'playbooks-outsider', async (o) => {
        await open(o, 'outsider', url);
        await eventually(async () => expect(await o.page.getByRole('alert').innerText()).toBe('The playbook could not be read: Playbook not found'));
      });
      // Made global by an administrator, the playbook reaches everyone; its picture, a file of the analyst's shared with ops, does not: a note says so.
      expect((await h.svc.request('PUT', `/api/playbooks/${saved[0].UUID}`, { headers: h.admin, json: { Global: true } })).status).toBe(200);
      await withPage(h, 'playbooks-outsider-global', async (o) => {
        await open(o, 'outsider', url);
        await o.page.getByRole('heading', { name: 'Web errors', level: 1 }).waitFor();
        expect(await o.page.getByRole('note').innerText()).toBe(
          'mouse: This image is a file that is not shared with you (or no longer exists); ask the playbook’s owner to share it with you.',
        );
        expect(await o.page.getByRole('img', { name: 'mouse' }).count()).toBe(0);
        shots.push(await keepScreenshot(o.page, 'playbook-image-not-shared'));
        expect(await h.problemsOf(o)).toEqual([]);
      });

      // Edit, then delete from the list after confirming.
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await page.getByLabel('Description').fill('Where the 404s and 500s come from');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Where the 404s and 500s come from', { exact: false }).waitFor();
      await go(page, 'Playbooks');
      await page.getByRole('button', { name: 'Delete Web errors' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete playbook' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('There are no playbooks yet.', { exact: false }).waitFor();
      expect((await h.svc.request('GET', '/api/playbooks', { headers })).body).toEqual([]);
      expect(await h.problemsOf(w)).toEqual([]);
    }));

  it('fits the Playbooks pages, a run query and the editor into 390 px', () =>
    withPage(
      h,
      'playbooks-phone',
      async (w) => {
        const { page } = w;
        const md = `# Process creation with a rather long heading that has to wrap\n\nSome words.\n\n\`\`\`\n${QUERY}\n\`\`\`\n`;
        const made = await h.svc.request('POST', '/api/playbooks', {
          headers,
          json: {
            Name: 'Sysmon process creation triage with a rather long name',
            Desc: 'A long description of it',
            Body: Buffer.from(md).toString('base64'),
            Labels: ['windows', 'sysmon'],
            GIDs: [opsGid],
          },
        });
        expect(made.status).toBe(200);
        await open(w, 'analyst');
        await page.getByRole('button', { name: 'Menu' }).tap();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Playbooks', exact: true }).tap();
        await page.getByRole('table', { name: 'Playbooks' }).waitFor();
        await expectNoSidewaysScroll(page, 'playbooks');
        shots.push(await keepScreenshot(page, 'phone-playbooks'));
        await page.getByRole('link', { name: 'Sysmon process creation triage with a rather long name' }).tap();
        await page.getByRole('heading', { name: 'Process creation with a rather long heading that has to wrap' }).waitFor();
        await page.getByRole('button', { name: 'Run Query 1' }).tap();
        await page.getByRole('region', { name: 'Results of Query 1' }).getByRole('table', { name: 'Results' }).waitFor({ timeout: 30000 });
        await eventually(async () => expect((await tableRows(page, 'Results')).sort()).toEqual(expected), 30000);
        await expectNoSidewaysScroll(page, 'playbook-view');
        shots.push(await keepScreenshot(page, 'phone-playbook-view'));
        await page.getByRole('link', { name: 'Edit', exact: true }).tap();
        await page.getByRole('textbox', { name: 'Markdown' }).waitFor();
        await expectNoSidewaysScroll(page, 'playbook-editor');
        shots.push(await keepScreenshot(page, 'phone-playbook-editor'));
        expect(await h.problemsOf(w)).toEqual([]);
      },
      { viewport: PHONE },
    ));
});
