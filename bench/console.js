'use strict';
/**
 * Section 8 of `npm run bench`: the web console. Bundle sizes from web/dist (gzip, as served;
 * goal: at most 350 KiB of JavaScript before the first page shows), and, in Debian's chromium
 * driven by playwright-core, the time from pressing Enter to the first result row (baseline: the
 * same search through the REST API from this process), and the frames while 100,000 entries scroll:
 * flung through in 3 s, and wheel-scrolled 3 rows a frame (scrollRows).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const L = require('./lib');
const { ROOT, USER, log, row, notes } = require('./context');

/** BENCH_CONSOLE_DIST=<dir>: measure another build of the console (say, the last commit's) */
const WEB_DIST = process.env.BENCH_CONSOLE_DIST ? path.resolve(process.env.BENCH_CONSOLE_DIST) : path.join(ROOT, 'web', 'dist');
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
  row('8 console', 'JS before the sign-in page shows (gzip)', signIn, 'KiB', 'goal', GOAL_KIB, 'lower');
  if (page) row('8 console', 'JS before the search page shows, editor included (gzip)', firstLoadKiB(manifest, [entry, page]), 'KiB', 'goal', GOAL_KIB, 'lower');
  if (charts)
    notes.push(`console: the chart library loads with the first chart or histogram, ${(firstLoadKiB(manifest, [charts]) - firstLoadKiB(manifest, [])).toFixed(0)} KiB gzip more.`);
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
  const launch = (
    await L.ok(base, 'POST', '/api/searchctrl/launch', {
      headers: user,
      json: { SearchString: query, SearchStart: new Date(Date.now() - 3600_000).toISOString(), SearchEnd: new Date().toISOString(), NoHistory: true },
    })
  ).body;
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
      const ms = await page.waitForFunction(
        () => {
          const [run] = performance.getEntriesByName('search-run');
          const [first] = performance.getEntriesByName('search-first-result');
          return run && first ? first.startTime - run.startTime : false;
        },
        null,
        { timeout: 60000 },
      );
      browserMs.push(await ms.jsonValue());
      apiMs.push(await apiFirstPage(base, user, query));
    }
    row(
      '8 console',
      `time from Enter to the first result row, ${SCROLL_ENTRIES} entries stored (median of ${RUNS})`,
      L.median(browserMs),
      'ms',
      'REST launch + poll + first page',
      L.median(apiMs),
      'lower',
    );

    // The list of every entry of the hour, then two ways of scrolling it.
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('tag=consolebench');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: new RegExp(`^${SCROLL_ENTRIES.toLocaleString('en-US')} results in`) })
      .waitFor({ timeout: 120000 });
    await scrollRows(browser, page, SCROLL_ENTRIES);
  } finally {
    await browser.close();
  }
}

/**
 * Frame times (sorted) while the list's scroller moves once a frame for `ms`, as `kind` says:
 * `times`, between the moments each frame's callback ran (the figure, as measured since the
 * console's first bench), and `vsync`, between the frames' own start times (rAF's argument),
 * where a frame that missed its vsync shows as 33 ms whatever the page's timers do.
 */
function frames(page, kind, ms) {
  return page.evaluate(
    async ({ kind, ms }) => {
      const el = document.querySelector('.entry-scroll');
      const rowPx = document.querySelector('.entry-scroll [role="row"]')?.getBoundingClientRect().height || 48;
      const times = [];
      const vsync = [];
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      let lastVsync = await frame();
      const t0 = performance.now();
      let last = t0;
      const from = el.scrollTop;
      while (last - t0 < ms) {
        const at = await frame();
        const now = performance.now();
        times.push(now - last);
        vsync.push(at - lastVsync);
        last = now;
        lastVsync = at;
        // fling: from the top to the bottom in `ms`; wheel: three rows a frame, as a mouse wheel notch; rest: still.
        if (kind === 'fling') el.scrollTop = ((now - t0) / ms) * (el.scrollHeight - el.clientHeight);
        else if (kind === 'wheel') el.scrollTop = from + times.length * 3 * rowPx;
      }
      const up = (a, b) => a - b;
      return { times: times.sort(up), vsync: vsync.sort(up) };
    },
    { kind, ms },
  );
}

/** How many frames (sorted vsync intervals) missed their vsync, and the slowest. */
const missed = (vsync) => `${vsync.filter((t) => t > 1.25 * (1000 / 60)).length} of ${vsync.length} frames missed a vsync, the slowest ${vsync[vsync.length - 1].toFixed(0)} ms`;

/**
 * Two figures: a fling through every entry in 3 s (each frame lands about 550 rows further), and
 * ordinary wheel scrolling (3 rows a frame for 3 s) from the middle of the list, across a page of
 * the render store. BENCH_CONSOLE_TRACE=<dir> also writes Chrome performance traces of both.
 */
async function scrollRows(browser, page, entries) {
  const traceDir = process.env.BENCH_CONSOLE_TRACE;
  const pages = [];
  page.on('request', (r) => /\/renderer\/text\?/.test(r.url()) && pages.push(r.url()));
  const measure = async (kind) => {
    if (traceDir)
      await browser.startTracing(page, {
        path: path.join(traceDir, `console-${kind}.json`),
        screenshots: false,
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8.execute', 'blink.user_timing'],
      });
    pages.length = 0;
    const measured = await frames(page, kind, 3000);
    if (traceDir) await browser.stopTracing();
    return { ...measured, fetched: pages.length };
  };
  const n = entries.toLocaleString('en-US');
  const fling = await measure('fling');
  row('8 console', `p95 frame while flinging through ${n} entries in 3 s`, L.pct(fling.times, 95), 'ms', 'one frame at 60 Hz', 1000 / 60, 'lower');
  notes.push(`console: the fling read ${fling.fetched} pages of the render store; ${missed(fling.vsync)}.`);

  // Wheel scrolling starts 100 rows before the middle page ends, once the rows there are shown.
  const start = Math.floor(entries / 2) - 100;
  await page.evaluate((start) => {
    const el = document.querySelector('.entry-scroll');
    el.scrollTop = (start / (Number(el.closest('[role="table"]').getAttribute('aria-rowcount')) - 1)) * el.scrollHeight;
  }, start);
  await page.waitForFunction((start) => document.querySelector(`.entry-scroll [aria-rowindex="${start + 2}"] [role="cell"].data`), start, { timeout: 30000 });
  const wheel = await measure('wheel');
  row('8 console', `p95 frame while wheel-scrolling ${n} entries, 3 rows a frame for 3 s`, L.pct(wheel.times, 95), 'ms', 'one frame at 60 Hz', 1000 / 60, 'lower');
  notes.push(`console: wheel scrolling read ${wheel.fetched} pages of the render store; ${missed(wheel.vsync)}.`);
  // What this machine's timers give with nothing moving: the floor of both figures.
  const rest = await measure('rest');
  notes.push(`console: the same measure with the list at rest: p95 ${L.pct(rest.times, 95).toFixed(1)} ms; ${missed(rest.vsync)}.`);
  if (traceDir) notes.push(`console: Chrome traces of the fling and the wheel scrolling in ${traceDir} (open in chrome://tracing or DevTools' Performance panel).`);
}

async function consoleSection({ base, user }) {
  bundleRows();
  await browserRows(base, user);
}

module.exports = { consoleSection, prepareConsole };
