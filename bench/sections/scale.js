'use strict';
/** Section 4: a one-hour query with 1, 7 and 30 days stored, and searches while ingest runs. */
const L = require('../lib');
const { performance } = L;
const { CFG, DAY, TODAY, log, notes, row, writeLines, ingestSink, loadRate, settleCompaction, search, best, tableRows } = require('../context');

async function scaleSection({ base, db, user }) {
  // Days `from` to `to` ago, `BENCH_SCALE_PER_DAY` entries each, through the service's ingest.
  const loadDays = async (from, to) => {
    for (let d = from; d <= to; d++) {
      const dayMs = TODAY - d * DAY;
      const { loaded } = await writeLines({ seed: 100 + d, n: CFG.scalePerDay, fromMs: dayMs, toMs: dayMs + DAY, sinks: [ingestSink({ base, user, tag: 'scale' })] });
      if (d === to) log(`4. scale: day ${d} ago: ${loadRate(loaded[0])}`);
    }
    await settleCompaction(db);
    await db.query('VACUUM ANALYZE block');
  };
  // The hour 12:00-13:00 of yesterday.
  const hs = TODAY - DAY + 12 * 3_600_000;
  const he = hs + 3_600_000;
  const q = 'tag=scale count | table';
  const measure = async () => {
    await search(base, user, q, hs, he);
    const r = await best(CFG.scaleRuns, () => search(base, user, q, hs, he));
    return { ms: r.median, count: Number(tableRows(r.value.body)[0]?.[0]) };
  };
  log(`4. scale: ${CFG.scalePerDay} entries/day; one-hour query over 1, 7, 30 days`);
  await loadDays(1, 1);
  const one = await measure();
  await loadDays(2, 7);
  const seven = await measure();
  await loadDays(8, 30);
  const thirty = await measure();
  if (one.count !== seven.count || one.count !== thirty.count) notes.push(`scale: one-hour counts differ ${one.count}/${seven.count}/${thirty.count}`);
  const g = `4 scale (\`${q}\` over one hour, ${CFG.scalePerDay} entries/day, median of ${CFG.scaleRuns})`;
  row(g, 'query time with 7 days stored', seven.ms, 'ms', 'same query with 1 day stored', one.ms, 'flat');
  row(g, 'query time with 30 days stored', thirty.ms, 'ms', 'same query with 1 day stored', one.ms, 'flat');

  // Searches while ingest runs (current time, its own tag).
  log(`4. scale: searches while ingest runs (${CFG.mixedSeconds} s)`);
  const next = L.lineGenerator(9);
  let stop = false;
  let ingested = 0;
  const batchBody = () =>
    JSON.stringify(
      Array.from({ length: CFG.batch }, () => {
        const ts = Date.now();
        return { TS: new Date(ts).toISOString(), Tag: 'live', Data: Buffer.from(next(ts)).toString('base64') };
      }),
    );
  const bodies = Array.from({ length: 8 }, batchBody);
  const ingestLoop = async () => {
    let k = 0;
    while (!stop) {
      await L.ok(base, 'PUT', '/api/ingest/json', { headers: user, body: bodies[k++ % bodies.length] });
      ingested += CFG.batch;
    }
  };
  const t = performance.now();
  const loops = Array.from({ length: 2 }, ingestLoop);
  const lat = [];
  while (performance.now() - t < CFG.mixedSeconds * 1000) lat.push((await search(base, user, q, hs, he)).ms);
  stop = true;
  await Promise.all(loops);
  const secs = (performance.now() - t) / 1000;
  row(g, `search median while ingesting (${Math.round(ingested / secs)} entries/s)`, L.median(lat), 'ms', 'same search, idle (30 days)', thirty.ms, 'lower');
}

module.exports = { scaleSection };
