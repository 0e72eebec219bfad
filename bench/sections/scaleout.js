'use strict';
/**
 * Section 9: scan throughput with 2 indexers against 1. A second service process from the same
 * build, its own DATA_DIR, port and main database, with INDEXER_URLS naming two fresh databases of
 * the same embedded PostgreSQL; section 3's lines are ingested into it through its own ingest
 * (round robin spreads the batches over the two), and the same grep runs on both services. Both
 * indexers share this machine's cores and disk with everything else: the figure says what this
 * machine shows, not what two PostgreSQL servers on their own hosts would.
 */
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const L = require('../lib');
const { performance } = L;
const { CFG, DAY, ADMIN_PASSWORD, USER, log, notes, row, state, writeLines, ingestSink, scanSpec, loadRate, settleCompaction, search, tableRows } = require('../context');

const DATABASES = ['bench_scaleout', 'bench_scaleout_ix1', 'bench_scaleout_ix2'];

/** VACUUM ANALYZE once compaction settled; answers the blocks and entries an indexer database holds. */
async function settled(db) {
  await settleCompaction(db);
  await db.query('VACUUM ANALYZE block');
  return (await db.query('SELECT count(*)::int AS blocks, coalesce(sum(n), 0)::float8 AS n FROM block')).rows[0];
}

async function scaleoutSection({ base, db, tmp, user, adminUrl, ensureDatabase, freePort, startService, stopService, waitHttp, cleanup }) {
  const spec = scanSpec();
  const start = spec.day;
  const end = spec.day + DAY;
  log('9. scale-out: a second service with 2 indexers (two databases of the same PostgreSQL)');
  for (const name of DATABASES) await db.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  const urls = [];
  for (const name of DATABASES) urls.push(await ensureDatabase(adminUrl, name));
  const [mainUrl, ...indexerUrls] = urls;
  const dataDir = path.join(tmp, 'data-scaleout');
  const port = await freePort();
  const base2 = `http://127.0.0.1:${port}`;
  const svc = startService({ dbUrl: mainUrl, dataDir, port, env: { INDEXER_URLS: indexerUrls.join(',') } });
  const clients = [];
  let done = false;
  const teardown = async () => {
    if (done) return;
    done = true;
    await stopService(svc);
    for (const c of clients) await c.end().catch(() => undefined);
    for (const name of DATABASES) await db.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  cleanup.push(teardown);
  try {
    await waitHttp(base2, svc, 'the 2-indexer service');
    const adminJwt = (await L.ok(base2, 'POST', '/api/login', { json: { User: 'admin', Pass: ADMIN_PASSWORD } })).body.JWT;
    await L.ok(base2, 'POST', '/api/users', { headers: { Authorization: `Bearer ${adminJwt}` }, json: USER });
    const user2 = { Authorization: `Bearer ${(await L.ok(base2, 'POST', '/api/login', { json: { User: USER.User, Pass: USER.Pass } })).body.JWT}` };

    // Section 3's lines (regenerated: the generator is seeded); into the first service too unless section 3 loaded them.
    const sinks = [ingestSink({ base: base2, user: user2, tag: 'scan' })];
    const reuse = state.scan !== undefined;
    if (!reuse) sinks.push(ingestSink({ base, user, tag: 'scan' }));
    log(`9. scale-out: ingesting ${CFG.scanMb} MiB of section 3's lines into the 2-indexer service${reuse ? '' : ' and into the first one'}`);
    const { count, bytes, loaded } = await writeLines({ ...spec, sinks });
    log(`9. scale-out: the 2-indexer service ingested ${loadRate(loaded[0])}`);
    notes.push(`scale-out (section 9): the 2-indexer service ingested ${loadRate(loaded[0])}${reuse ? '' : `; the first service, at the same time, ${loadRate(loaded[1])}`}`);

    const per = [];
    for (const url of indexerUrls) {
      const c = new Client({ connectionString: url });
      clients.push(c);
      await c.connect();
      per.push(await settled(c));
    }
    if (!reuse) await settled(db);
    const held = per.reduce((s, p) => s + p.n, 0);
    notes.push(`scale-out: the 2 indexers hold ${per.map((p) => `${p.n} entries in ${p.blocks} blocks`).join(' and ')}`);
    if (held !== count) notes.push(`scale-out: the 2 indexers hold ${held} entries, ${count} lines were sent`);

    // One untimed search each first (the new service's worker threads and caches are cold; the
    // first one's are warm from the sections before), then interleaved, best of BENCH_SCAN_RUNS each.
    const q = `tag=scan grep "${L.NEEDLE}" | count | table`;
    await search(base, user, q, start, end);
    await search(base2, user2, q, start, end);
    const runs = { one: { ms: Infinity, all: [] }, two: { ms: Infinity, all: [] } };
    for (let i = 0; i < CFG.scanRuns; i++) {
      for (const [k, b, u] of [
        ['one', base, user],
        ['two', base2, user2],
      ]) {
        const t = performance.now();
        const r = await search(b, u, q, start, end);
        const ms = performance.now() - t;
        runs[k].all.push(Math.round(ms));
        if (ms < runs[k].ms) Object.assign(runs[k], { ms, count: Number(tableRows(r.body)[0]?.[0]) });
      }
    }
    log(`9. scale-out: runs (ms): 1 indexer ${runs.one.all.join(', ')}; 2 indexers ${runs.two.all.join(', ')}`);
    if (runs.one.count !== runs.two.count || (reuse && runs.two.count !== state.scan.grepCount)) {
      notes.push(`scale-out count mismatch: 2 indexers ${runs.two.count}, 1 indexer ${runs.one.count}${reuse ? `, grep -c ${state.scan.grepCount}` : ''}`);
    }
    // The same GB as section 3: the log file's size (the lines with their newlines).
    const gb = (bytes + count) / 1e9;
    const g = `9 scale-out (${count} lines, ${((bytes + count) / 2 ** 20).toFixed(0)} MiB, 2 indexers = 2 databases of one PostgreSQL, best of ${CFG.scanRuns})`;
    row(g, `\`${q}\` GB/s with 2 indexers`, gb / (runs.two.ms / 1000), 'GB/s', '1 indexer (the first service, same lines)', gb / (runs.one.ms / 1000), 'higher');
    row(g, 'same, time', runs.two.ms / 1000, 's', '1 indexer', runs.one.ms / 1000, 'lower');
  } catch (err) {
    throw new Error(`${err.message}\nthe 2-indexer service said:\n${svc.output()}`);
  } finally {
    await teardown();
  }
}

module.exports = { scaleoutSection };
