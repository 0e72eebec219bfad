/**
 * What the browser tests share: the real service with the console (one per test file, its own
 * database), Debian's chromium through playwright-core, data ingested through the API, and
 * pages that record every Content-Security-Policy violation and script error.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { createTestDatabase } from '../setup/db';
import { b64, Headers, ServiceProcess } from '../faults/service';
import { NAV_ITEMS } from '../../web/src/layout/nav';

export const SHOTS = path.resolve(__dirname, 'screenshots');

/** A phone held upright (an iPhone 12-15's CSS size): touch, and the page's own viewport meta honoured. */
export const PHONE: Viewport = { width: 390, height: 844, mobile: true };

export interface Viewport {
  width: number;
  height: number;
  /** a touch screen that honours `<meta name="viewport">`, as phones do */
  mobile?: boolean;
}

export interface PageOptions {
  clipboard?: boolean;
  /** the window's size; 1280 x 860 unless given */
  viewport?: Viewport;
}

export interface Watched {
  page: Page;
  /** CSP violations and uncaught errors seen by the page */
  problems: string[];
}

export class ConsoleHarness {
  svc!: ServiceProcess;
  browser!: Browser;
  admin!: Headers;

  async start(env: Record<string, string> = {}): Promise<void> {
    this.svc = new ServiceProcess(await createTestDatabase(), env);
    await this.svc.start();
    this.admin = await this.svc.asAdmin();
    this.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
  }

  async stop(): Promise<void> {
    await this.browser?.close();
    await this.svc?.dispose();
  }

  get base(): string {
    return this.svc.base;
  }

  async createUser(user: string, pass: string): Promise<{ uid: number; headers: Headers }> {
    const res = await this.svc.request('POST', '/api/users', {
      headers: this.admin,
      json: { User: user, Pass: pass, Name: `${user} tester`, Email: `${user}@example.com`, Admin: false },
    });
    if (res.status !== 200) throw new Error(`create ${user}: ${res.status} ${res.text}`);
    return { uid: res.body as number, headers: await this.svc.login(user, pass) };
  }

  /** Entries through PUT /api/ingest/json; `ageMs` is how long ago each happened. */
  async ingest(headers: Headers, tag: string, entries: Array<{ data: string; ageMs: number; src?: string }>): Promise<void> {
    const now = Date.now();
    for (let i = 0; i < entries.length; i += 5000) {
      const body = entries.slice(i, i + 5000).map((e) => ({ TS: new Date(now - e.ageMs).toISOString(), Tag: tag, SRC: e.src ?? '10.0.0.1', Data: b64(e.data) }));
      const res = await this.svc.request('PUT', '/api/ingest/json', { headers, json: body, timeoutMs: 60000 });
      if (res.status !== 200) throw new Error(`ingest ${tag}: ${res.status} ${res.text}`);
    }
  }

  /** A fresh browser context (no cookies) with a page that records problems. */
  async page(opts: PageOptions = {}): Promise<Watched> {
    const { width, height, mobile = false } = opts.viewport ?? { width: 1280, height: 860 };
    const context = await this.browser.newContext({ viewport: { width, height }, isMobile: mobile, hasTouch: mobile, baseURL: this.base, acceptDownloads: true });
    if (opts.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: this.base });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Trusted Type|TrustedHTML/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __csp: string[] }).__csp ??= [];
        (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
      });
    });
    return { page, problems };
  }

  /** CSP violations the page reported, with the problems seen from outside. */
  async problemsOf(w: Watched): Promise<string[]> {
    const csp = await w.page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []).catch(() => []);
    return [...w.problems, ...csp.map((c) => `csp: ${c}`)];
  }
}

/** Runs `body` with a page; on failure saves a screenshot under test/browser/screenshots/failures. */
export async function withPage(h: ConsoleHarness, name: string, body: (w: Watched) => Promise<void>, opts?: PageOptions): Promise<void> {
  const w = await h.page(opts);
  try {
    await body(w);
  } catch (err) {
    fs.mkdirSync(path.join(SHOTS, 'failures'), { recursive: true });
    await w.page.screenshot({ path: path.join(SHOTS, 'failures', `${name.replace(/[^\w-]+/g, '-')}.png`), fullPage: true }).catch(() => undefined);
    throw err;
  } finally {
    await w.page.context().close();
  }
}

/** A screenshot for people to look at (test/browser/screenshots, not committed). */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

export async function signIn(page: Page, user: string, pass: string): Promise<void> {
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(pass);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Follows a link of the navigation bar as a person does: through its menu (Tools, Automation, Admin) when it
 * stands in one. With `touch` (a phone), the Menu button is tapped first and every step is a tap.
 */
export async function goTo(page: Page, label: string, opts: { touch?: boolean } = {}): Promise<void> {
  const item = NAV_ITEMS.find((i) => i.label === label);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const press = (l: ReturnType<Page['getByRole']>) => (opts.touch ? l.tap() : l.click());
  if (opts.touch) await page.getByRole('button', { name: 'Menu' }).tap();
  const menu = item && item.place !== 'main' ? { tools: 'Tools', automation: 'Automation', admin: 'Admin', account: undefined }[item.place] : undefined;
  if (menu) await press(nav.getByText(menu, { exact: true }));
  await press(nav.getByRole('link', { name: label, exact: true }));
}

/** Types a query into the editor (replacing what is there) and presses Enter. */
export async function runQuery(page: Page, query: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Query' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(query);
  await page.keyboard.press('Enter');
}

/** Retries `check` (jest expectations inside) until it passes or `timeoutMs` runs out. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The text of every cell of each data row of an ARIA table (header rows left out). */
/** Cells of each body row of a table: its row header (when it has one) then its cells. */
export async function rowsOf(page: Page, table: string): Promise<string[][]> {
  const out: string[][] = [];
  for (const row of await page.getByRole('table', { name: table, exact: true }).getByRole('row').all()) {
    const head = await row.getByRole('rowheader').allInnerTexts();
    const cells = await row.getByRole('cell').allInnerTexts();
    if (cells.length) out.push([...head, ...cells].map((c) => c.trim()));
  }
  return out;
}

export async function tableRows(page: Page, name: string): Promise<string[][]> {
  const rows = page.getByRole('table', { name, exact: true }).getByRole('row');
  const out: string[][] = [];
  for (const row of await rows.all()) {
    const cells = await row.getByRole('cell').allInnerTexts();
    if (cells.length) out.push(cells.map((c) => c.trim()));
  }
  return out;
}
