'use strict';
/**
 * Section 7 of `npm run bench`: the web console. Bundle sizes from web/dist (gzip, as served;
 * goal: at most 350 KiB of JavaScript before the first page shows), and, in Debian's chromium
 * driven by playwright-core, the time from pressing Enter to the first result row (baseline: the
 * same search through the REST API from this process), and the frames while 100,000 entries scroll.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const L = require('./lib');
const { ROOT, USER, log, row, notes } = require('./context');

const WEB_DIST = path.join(ROOT, 'web', 'dist');
const GOAL_KIB = 350;
const SCROLL_ENTRIES = Number(process.env.BENCH_CONSOLE_ENTRIES || 100_000);
const RUNS = Number(process.env.BENCH_CONSOLE_RUNS || 5);

/** Before the service starts: the console built, and the private build pointed at it. */
function prepareConsole(buildDir) {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    log('building the console (npm run build:web)');
    execFileSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'pipe' });
  }
  const link = path.join(buildDir, 'web', 'dist');
  if (!fs.existsSync(link)) {
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(WEB_DIST, link, 'dir');
  }
}

/** Gzipped bytes of the JavaScript a page loads before it shows: its chunk and every static import. */
function firstLoadKiB(manifest, keys) {
  const seen = new Set();
  const visit = (k) => {
    if (seen.has(k) || !manifest[k]) return;
    seen.add(k);
    for (const i of manifest[k].imports ?? []) visit(i);
  };
  keys.forEach(visit);
  let bytes = 0;
  for (const k of seen) bytes += zlib.gzipSync(fs.readFileSync(path.join(WEB_DIST, manifest[k].file)), { level: 9 }).length;
  return bytes / 1024;
}

function bundleRows() {
  const manifest = JSON.parse(fs.readFileSync(path.join(WEB_DIST, '.vite', 'manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const page = Object.keys(manifest).find((k) => /search\/SearchPage\.tsx$/.test(k));
  const charts = Object.keys(manifest).find((k) => /results\/echarts\.ts$/.test(k));
  const signIn = firstLoadKiB(manifest, [entry]);
  row('7 console', 'JS before the sign-in page shows (gzip)', signIn, 'KiB', 'goal', GOAL_KIB, 'lower');
  if (page) row('7 console', 'JS before the search page shows, editor included (gzip)', firstLoadKiB(manifest, [entry, page]), 'KiB', 'goal', GOAL_KIB, 'lower');
  if (charts) notes.push(`console: the chart library loads with the first chart or histogram, ${(firstLoadKiB(manifest, [charts]) - firstLoadKiB(manifest, [])).toFixed(0)} KiB gzip more.`);
}

async function ingest(base, user) {
  const now = Date.now();
  const statuses = [200, 200, 200, 404, 500];
  for (let i = 0; i < SCROLL_ENTRIES; i += 5000) {
    const batch = [];
    for (let j = i; j < Math.min(SCROLL_ENTRIES, i + 5000); j++) {
      const line = `id=${j} method=GET path=/p${j % 13} status=${statuses[j % 5]} bytes=${100 + (j % 900)}`;
      batch.push({ TS: new Date(now - 1000 - Math.floor((j * 3_000_000) / SCROLL_ENTRIES)).toISOString(), Tag: 'consolebench', Data: Buffer.from(line).toString('base64') });
    }
    await L.ok(base, 'PUT', '/api/ingest/json', { headers: user, json: batch });
  }
}

/** The baseline: launch through the REST API, poll, read the first page (what the console does, minus the browser). */
async function apiFirstPage(base, user, query) {
  const t0 = L.performance.now();
  const launch = (await L.ok(base, 'POST', '/api/searchctrl/launch', { headers: user, json: { SearchString: query, SearchStart: new Date(Date.now() - 3600_000).toISOString(), SearchEnd: new Date().toISOString(), NoHistory: true } })).body;
  const q = `sid=${launch.SearchSessionID}`;
  for (;;) {
    const stats = (await L.ok(base, 'GET', `/api/searchctrl/${launch.SearchID}/stats?${q}`, { headers: user })).body;
    if (stats.EntryCount > 0 || stats.Finished) break;
    await L.sleep(50);
  }
  await L.ok(base, 'GET', `/api/searchctrl/${launch.SearchID}/renderer/text?${q}&first=0&last=500`, { headers: user });
  const ms = L.performance.now() - t0;
  await L.request(base, 'DELETE', `/api/searchctrl/${launch.SearchID}`, { headers: user });
  return ms;
}

async function browserRows(base, user) {
  const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser', process.env.CHROMIUM_PATH].find((p) => p && fs.existsSync(p));
  if (!chromium) {
    notes.push('console: no chromium (apt-get install -y chromium); the browser figures were skipped.');
    return;
  }
  log(`console: ingesting ${SCROLL_ENTRIES} entries`);
  await ingest(base, user);
  const { chromium: pw } = require(path.join(ROOT, 'node_modules', 'playwright-core'));
  const browser = await pw.launch({ executablePath: chromium, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: base })).newPage();
    await page.goto('/login');
    await page.getByLabel('Username').fill(USER.User);
    await page.getByLabel('Password').fill(USER.Pass);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const editor = page.getByRole('textbox', { name: 'Query' });
    await editor.waitFor();
    const query = 'tag=consolebench grep "status=500"';
    const browserMs = [];
    const apiMs = [];
    for (let i = 0; i < RUNS; i++) {
      await editor.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText(i % 2 ? `${query} ` : query);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Enter');
      const ms = await page.waitForFunction(() => {
        const [run] = performance.getEntriesByName('search-run');
        const [first] = performance.getEntriesByName('search-first-result');
        return run && first ? first.startTime - run.startTime : false;
      }, null, { timeout: 60000 });
      browserMs.push(await ms.jsonValue());
      apiMs.push(await apiFirstPage(base, user, query));
    }
    row('7 console', `time from Enter to the first result row, ${SCROLL_ENTRIES} entries stored (median of ${RUNS})`, L.median(browserMs), 'ms', 'REST launch + poll + first page', L.median(apiMs), 'lower');

    // Scroll every entry of the hour through the virtual list, one step per frame, for 3 s.
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('tag=consolebench');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: new RegExp(`^${SCROLL_ENTRIES.toLocaleString('en-US')} results in`) }).waitFor({ timeout: 120000 });
    const frames = await page.evaluate(async () => {
      const el = document.querySelector('.entry-scroll');
      const times = [];
      const t0 = performance.now();
      let last = t0;
      while (performance.now() - t0 < 3000) {
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        times.push(now - last);
        last = now;
        el.scrollTop = ((now - t0) / 3000) * (el.scrollHeight - el.clientHeight);
      }
      return times.sort((a, b) => a - b);
    });
    row('7 console', `p95 frame while scrolling ${SCROLL_ENTRIES.toLocaleString('en-US')} entries in 3 s`, L.pct(frames, 95), 'ms', 'one frame at 60 Hz', 1000 / 60, 'lower');
  } finally {
    await browser.close();
  }
}

async function consoleSection({ base, user }) {
  bundleRows();
  await browserRows(base, user);
}

module.exports = { consoleSection, prepareConsole };
