'use strict';
/** Section 3: grep and kv aggregation over generated log lines against grep -c, rg -c and hand-written SQL. */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const L = require('../lib');
const { performance } = L;
const { CFG, DAY, TODAY, log, notes, row, psql, writeLines, ensurePartition, tagId, search, best, tableRows } = require('../context');

function countLines(cmd, file) {
  const t = performance.now();
  const out = execFileSync(cmd, ['-c', '-F', L.NEEDLE, file], { encoding: 'utf8', maxBuffer: 1 << 20 }).trim();
  return { ms: performance.now() - t, count: Number(out) };
}

async function scanSection({ base, dbUrl, db, tmp, user }) {
  const target = CFG.scanMb * 2 ** 20;
  const day = TODAY - 40 * DAY;
  log(`3. scan: generating ${CFG.scanMb} MiB of log lines`);
  const scanTag = await tagId(db, 'scan');
  const copyFile = path.join(tmp, 'scan.copy');
  const logFile = path.join(tmp, 'scan.log');
  const approx = Math.ceil(target / 180);
  await ensurePartition(db, day);
  const { count, bytes } = await writeLines({ seed: 3, n: approx * 2, fromMs: day, toMs: day + DAY / 2, tag: scanTag, copyFile, logFile, maxBytes: target });
  log(`3. scan: loading ${count} lines (${(bytes / 2 ** 20).toFixed(0)} MiB) with COPY, then VACUUM ANALYZE`);
  await psql(dbUrl, `\\copy entry (ts, tag, src, data) FROM STDIN`, copyFile);
  fs.rmSync(copyFile, { force: true });
  await db.query('VACUUM ANALYZE entry');
  const fileBytes = fs.statSync(logFile).size;
  const start = day;
  const end = day + DAY;
  const gb = fileBytes / 1e9;
  const g = `3 scan (${count} lines, ${(fileBytes / 2 ** 20).toFixed(0)} MiB, best of ${CFG.scanRuns})`;

  const q = `tag=scan grep "${L.NEEDLE}" | count | table`;
  const svc = await best(CFG.scanRuns, () => search(base, user, q, start, end));
  const svcCount = Number(tableRows(svc.value.body)[0]?.[0]);
  const gr = await best(CFG.scanRuns, async () => countLines('grep', logFile));
  if (gr.value.count !== svcCount) notes.push(`grep count mismatch: service ${svcCount}, grep -c ${gr.value.count}`);
  row(g, `\`${q}\` time`, svc.ms / 1000, 's', 'grep -c -F (file)', gr.ms / 1000, 'lower');
  row(g, 'same, GB/s', gb / (svc.ms / 1000), 'GB/s', 'grep -c -F (file)', gb / (gr.ms / 1000), 'higher');
  if (L.which('rg')) {
    const rg = await best(CFG.scanRuns, async () => countLines('rg', logFile));
    if (rg.value.count !== svcCount) notes.push(`rg count mismatch: service ${svcCount}, rg -c ${rg.value.count}`);
    row(g, 'same, GB/s', gb / (svc.ms / 1000), 'GB/s', 'rg -c -F (file)', gb / (rg.ms / 1000), 'higher');
  } else notes.push('rg is not installed: the rg -c baseline was skipped (apt-get install ripgrep)');
  const sqlGrep = await best(CFG.scanRuns, () => db.query(`SELECT count(*)::int AS n FROM entry WHERE tag = $1 AND ts >= $2 AND ts < $3 AND position($4::bytea IN data) > 0`, [scanTag, new Date(start), new Date(end), Buffer.from(L.NEEDLE)]));
  row(g, 'same, time', svc.ms / 1000, 's', 'hand-written SQL count(*) with position()', sqlGrep.ms / 1000, 'lower');

  const qa = 'tag=scan kv status | count by status | table';
  log(`3. scan: aggregation ${qa}`);
  const agg = await best(CFG.scanRuns, () => search(base, user, qa, start, end));
  const sqlAgg = await best(CFG.scanRuns, () =>
    db.query(`SELECT substring(convert_from(data, 'UTF8') FROM ' status=([^ ]*)') AS status, count(*)::int AS n FROM entry WHERE tag = $1 AND ts >= $2 AND ts < $3 GROUP BY 1`, [scanTag, new Date(start), new Date(end)]),
  );
  const svcMap = Object.fromEntries(tableRows(agg.value.body).map((r) => [r[0], Number(r[1])]));
  const sqlMap = Object.fromEntries(sqlAgg.value.rows.map((r) => [r.status, r.n]));
  if (JSON.stringify(Object.entries(svcMap).sort()) !== JSON.stringify(Object.entries(sqlMap).sort())) notes.push(`aggregation results differ: service ${JSON.stringify(svcMap)} vs SQL ${JSON.stringify(sqlMap)}`);
  row(g, `\`${qa}\` time`, agg.ms / 1000, 's', 'hand-written SQL GROUP BY substring()', sqlAgg.ms / 1000, 'lower');
  row(g, 'same, GB/s', gb / (agg.ms / 1000), 'GB/s', 'hand-written SQL', gb / (sqlAgg.ms / 1000), 'higher');
  fs.rmSync(logFile, { force: true });
}

module.exports = { scanSection };
