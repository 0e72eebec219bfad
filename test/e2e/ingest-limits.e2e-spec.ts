import { Client } from 'pg';
import request from 'supertest';
import { IndexerService } from '../../src/indexer/indexer.service';
import { createPartitionSql, dayOfMicros, partitionDay } from '../../src/indexer/indexer.schema';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers } from '../setup/auth';
import { errorBody, limitErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';
import { storedData } from '../setup/blocks';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const DAY = 86_400_000;
const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

/**
 * One ingest request must not use up what every user shares: tag numbers (a smallint), day
 * partitions (each a table with locks), or time beyond what retention can drop.
 */
describe('ingest limits (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;

  const ingest = (h: Headers, entries: unknown[]) => request(t.http).put('/api/ingest/json').set(h).send(entries);
  const tagCount = async () => Number((await db.query(`SELECT count(*)::int AS n FROM tag`)).rows[0].n);
  const partitions = async () => Number((await db.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'block'::regclass`)).rows[0].n);

  beforeAll(async () => {
    t = await createTestApp({ retentionDays: 30, ingestMaxFutureDays: 1, maxNewTagsPerRequest: 20, maxTagsPerUser: 30, maxNewPartitionsPerRequest: 10 });
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('refuses more new tags than MAX_NEW_TAGS_PER_REQUEST with 400, creating none and using no tag number', async () => {
    const before = await tagCount();
    const many = Array.from({ length: 21 }, (_, i) => ({ TS: at(1000), Tag: `burst${i}`, Data: b64('x') }));
    expect((await ingest(admin, many).expect(400)).body).toEqual(errorBody(limitErrors.newTagsPerRequest(21, 20), 'TOO_MANY_NEW_TAGS'));
    expect(await tagCount()).toBe(before);
    // The next new tag takes the lowest free number: nothing was consumed.
    await ingest(admin, [{ TS: at(1000), Tag: 'after_burst', Data: b64('x') }]).expect(200);
    const { rows } = await db.query(`SELECT id FROM tag WHERE name = 'after_burst'`);
    const free = await db.query(`SELECT min(g)::int AS g FROM generate_series(1, 32767) g WHERE g NOT IN (SELECT id FROM tag WHERE name <> 'after_burst')`);
    expect(rows[0].id).toBe(free.rows[0].g);
  });

  it('limits the tags one user may create in all (MAX_TAGS_PER_USER); others are unaffected', async () => {
    const u = await createUser(t.http, admin);
    const tok = await createToken(t.http, u.headers, ['Ingest']);
    for (let round = 0; round < 3; round++) {
      const batch = Array.from({ length: 10 }, (_, i) => ({ TS: at(1000), Tag: `u${u.uid}_${round}_${i}`, Data: b64('x') }));
      await ingest(tok.headers, batch).expect(200);
    }
    const over = await ingest(tok.headers, [{ TS: at(1000), Tag: `u${u.uid}_one_more`, Data: b64('x') }]).expect(400);
    expect(over.body).toEqual(errorBody(limitErrors.tagsPerUser(30, 30), 'TOO_MANY_TAGS'));
    // Existing tags stay usable by everyone, and another user may still create tags.
    await ingest(tok.headers, [{ TS: at(1000), Tag: `u${u.uid}_0_0`, Data: b64('again') }]).expect(200);
    await ingest(admin, [{ TS: at(1000), Tag: 'admin_still_can', Data: b64('x') }]).expect(200);
  });

  it('reuses free numbers when the tag space runs out, and says so clearly when none is left', async () => {
    const used = (await db.query(`SELECT id FROM tag`)).rows.map((r) => r.id as number);
    const gap = 32_000;
    expect(used).not.toContain(gap);
    await db.query(`INSERT INTO tag (id, name) SELECT g, 'filler' || g FROM generate_series(1, 32767) g WHERE g <> $1 AND g NOT IN (SELECT id FROM tag)`, [gap]);
    await ingest(admin, [{ TS: at(1000), Tag: 'last_number', Data: b64('x') }]).expect(200);
    expect((await db.query(`SELECT id FROM tag WHERE name = 'last_number'`)).rows[0].id).toBe(gap);
    const full = await ingest(admin, [{ TS: at(1000), Tag: 'no_number_left', Data: b64('x') }]).expect(400);
    expect(full.body).toEqual(errorBody(limitErrors.tagNumbersLeft(0), 'TAG_NUMBERS_EXHAUSTED'));
    // Recoverable: freeing a number (here by hand) lets creation go on.
    await db.query(`DELETE FROM tag WHERE name = 'filler100'`);
    await ingest(admin, [{ TS: at(1000), Tag: 'no_number_left', Data: b64('x') }]).expect(200);
    await db.query(`DELETE FROM tag WHERE name LIKE 'filler%'`);
  });

  it('refuses entries older than retention or further ahead than INGEST_MAX_FUTURE_DAYS with 400, storing nothing', async () => {
    const before = await partitions();
    const old = await ingest(admin, [
      { TS: at(1000), Tag: 'window', Data: b64('ok') },
      { TS: at(40 * DAY), Tag: 'window', Data: b64('old') },
    ]).expect(400);
    expect(old.body.Error).toMatch(/^entry 1: time .* is older than the retention of 30 days \(RETENTION_DAYS\)$/);
    const ahead = await ingest(admin, [{ TS: at(-3 * DAY), Tag: 'window', Data: b64('ahead') }]).expect(400);
    expect(ahead.body.Error).toMatch(/more than 1 days ahead/);
    expect(await partitions()).toBe(before);
  });

  it('refuses a request that would add more than MAX_NEW_PARTITIONS_PER_REQUEST days, creating none', async () => {
    const before = await partitions();
    const spread = Array.from({ length: 12 }, (_, i) => ({ TS: at((i + 2) * DAY), Tag: 'spread', Data: b64(`d${i}`) }));
    expect((await ingest(admin, spread).expect(400)).body).toEqual(errorBody(limitErrors.newDays(12, 10), 'TOO_MANY_NEW_DAYS'));
    expect(await partitions()).toBe(before);
    await ingest(admin, spread.slice(0, 10)).expect(200);
    expect(await partitions()).toBeGreaterThanOrEqual(before + 9);
  });

  it('HEC: an event outside the window is a bad event (code 6); the events before it are stored', async () => {
    const tok = await createToken(t.http, admin, ['Ingest']);
    const body = [
      { event: 'hec-in-window', time: Date.now() / 1000 },
      { event: 'hec-future', time: Date.now() / 1000 + 5 * 86400 },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    const res = await request(t.http).post('/services/collector/event').set('Authorization', `Splunk ${tok.secret}`).send(body).expect(400);
    expect(res.body).toEqual(expect.objectContaining({ code: 6, 'invalid-event-number': 1 }));
    expect(await storedData(db, 'hec-')).toEqual(['hec-in-window']);
  });

  it('retention drops partitions outside the kept days at both ends, far-future ones included', async () => {
    const ix = t.app.get(IndexerService);
    const far = dayOfMicros((Date.now() + 400 * DAY) * 1000);
    await db.query(createPartitionSql(far));
    const dropped = await ix.applyRetention();
    expect(dropped.some((name) => name.endsWith(new Date(far * DAY).toISOString().slice(0, 10).replace(/-/g, '')))).toBe(true);
    const kept = ix.keptDays();
    const left = (await db.query(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'block'::regclass`)).rows;
    expect(left.length).toBeGreaterThan(0);
    expect(left.map((r) => partitionDay(r.name as string)!).filter((d) => d < kept.first || d > kept.last)).toEqual([]);
  });
});
