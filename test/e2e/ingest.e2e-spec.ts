import type { ErrorCode } from '../../src/common/errors/codes';
import request from 'supertest';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { asAdmin, createUser, Headers } from '../setup/auth';
import { createTestApp, TestApp } from '../setup/app';
import { createToken } from '../setup/tokens';
import { errorBody, fieldErrors, ingestErrors, requestErrors } from '../setup/errors';
import { watchScanWorkers } from '../setup/scan-workers';
import { IndexerPools } from '../../src/indexer/indexer-pools';
import { IngestMeter } from '../../src/indexer/ingest-meter';
import { storedEntries } from '../setup/blocks';

/** Scan jobs and worker threads started while this file runs (the pool's diagnostics channel). */
const scanJobStats = watchScanWorkers();

const b64 = (s: string) => Buffer.from(s).toString('base64');
const RANGE = { start: '2020-01-01T00:00:00Z', end: '2030-01-01T00:00:00Z' };

describe('ingest (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;

  const search = (query: string, format = 'json', h: Headers = admin) =>
    request(t.http).post('/api/search/direct').set(h).send({ SearchString: query, Format: format, SearchStart: RANGE.start, SearchEnd: RANGE.end });
  const countRows = async () => (await storedEntries(db)).length;

  beforeAll(async () => {
    t = await createTestApp({ maxIngestEntries: 50, maxIngestBatchBytes: 64 * 1024 });
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('PUT /api/ingest/json stores entries and answers after commit; search finds them (in a worker)', async () => {
    const before = scanJobStats.jobs;
    const res = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([
        { TS: '2024-03-01T10:00:00.123456789Z', Tag: 'jsontag', SRC: '10.0.0.1', Data: b64('hello json one') },
        { TS: '2024-03-01T11:00:00-01:00', Tag: 'jsontag', Data: b64('hello json two'), Enumerated: [{ Name: 'user', ValueStr: 'bob' }] },
      ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Count: 2, Size: 28 });
    expect(t.app.get(IngestMeter).snapshot(t.app.get(IndexerPools).all[0].name)).toEqual(expect.objectContaining({ TotalCount: 2, TotalSize: 28 }));
    const s = await search('tag=jsontag');
    expect(s.status).toBe(200);
    expect(s.body).toEqual([
      {
        TS: '2024-03-01T12:00:00.000000Z',
        SRC: '127.0.0.1',
        Tag: expect.any(Number),
        Data: b64('hello json two'),
        Enumerated: [{ Name: 'user', ValueStr: 'bob', Value: { Type: 13, Data: b64('bob') } }],
      },
      { TS: '2024-03-01T10:00:00.123456Z', SRC: '10.0.0.1', Tag: expect.any(Number), Data: b64('hello json one'), Enumerated: [] },
    ]);
    expect(scanJobStats.jobs).toBeGreaterThan(before);
  });
  it('accepts times inside the kept days and refuses the far future (retention could never drop it) with 400', async () => {
    // This app keeps a century (test config); the storage itself takes 1970 to 9999 (copy-binary e2e).
    const ok = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: '1970-01-01T00:00:00.000001Z', Tag: 'edges', Data: b64('first') }]);
    expect({ status: ok.status, body: ok.body }).toEqual({ status: 200, body: { Count: 1, Size: 5 } });
    const before = await countRows();
    const res = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([
        { TS: new Date().toISOString(), Tag: 'edges', Data: b64('now') },
        { TS: '9999-12-31T23:59:59.999Z', Tag: 'edges', Data: b64('last') },
      ])
      .expect(400);
    expect(res.body.Error).toMatch(/^entry 1: time 9999-12-31T23:59:59\.999Z is more than 1 days ahead \(INGEST_MAX_FUTURE_DAYS\)$/);
    expect(await countRows()).toBe(before);
  });
});

describe('ingest APIs (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;
  let ingestToken: string;
  let searchOnlyToken: string;

  const search = (query: string, format = 'json') =>
    request(t.http).post('/api/search/direct').set(admin).send({ SearchString: query, Format: format, SearchStart: RANGE.start, SearchEnd: RANGE.end });
  const countRows = async () => (await storedEntries(db)).length;
  const tagRows = async () => (await db.query('SELECT name FROM tag ORDER BY name')).rows.map((r) => r.name as string);
  const hec = (path: string) => request(t.http).post(`/services/collector${path}`);

  beforeAll(async () => {
    t = await createTestApp({ maxIngestEntries: 50, maxIngestBatchBytes: 64 * 1024 });
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    ingestToken = (await createToken(t.http, admin, ['Ingest'])).secret;
    searchOnlyToken = (await createToken(t.http, admin, ['Search'])).secret;
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const LINES = ['2024-05-01T10:00:00Z alpha login user=ann', '2024-05-01T10:00:01Z beta logout user=bob', '2024-05-01T10:00:02Z gamma login user=cid'];

  it('ingests the same lines through the three APIs and finds the same entries', async () => {
    const json = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send(LINES.map((l, i) => ({ TS: `2024-05-01T10:00:0${i}Z`, Tag: 'viajson', Data: b64(l) })));
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ Count: 3, Size: LINES.join('').length });

    const lines = await request(t.http)
      .post('/api/ingest/lines')
      .set(admin)
      .field('tag', 'vialines')
      .field('source', '192.168.1.9')
      .attach('file', Buffer.from(LINES.join('\r\n') + '\n\n'), 'log.txt');
    expect(lines.status).toBe(200);
    expect(lines.body).toEqual({ Count: 3, Size: LINES.join('').length, Tags: ['vialines'] });

    const body = LINES.map((l, i) => JSON.stringify({ event: l, time: Date.parse(`2024-05-01T10:00:0${i}Z`) / 1000, sourcetype: 'viahec', fields: { n: i } })).join('');
    const h = await hec('/event').set('Authorization', `Splunk ${ingestToken}`).send(body);
    expect(h.status).toBe(200);
    expect(h.body).toEqual({ text: 'Success', code: 0, 'invalid-event-number': 0, ackID: '' });

    const expected = (tag: string) => ['gamma', 'beta', 'alpha'].map((w, k) => ({ TS: `2024-05-01T10:00:0${2 - k}.000000Z`, word: w, tag }));
    for (const tag of ['viajson', 'vialines', 'viahec']) {
      const s = await search(`tag=${tag} grep login logout`);
      expect(s.status).toBe(200);
      expect(s.body.map((e: { TS: string; Data: string }) => ({ TS: e.TS, word: Buffer.from(e.Data, 'base64').toString().split(' ')[1], tag }))).toEqual(expected(tag));
    }
    const lineSearch = await search('tag=vialines grep beta');
    expect(lineSearch.body).toEqual([{ TS: '2024-05-01T10:00:01.000000Z', SRC: '192.168.1.9', Tag: expect.any(Number), Data: b64(LINES[1]), Enumerated: [] }]);
    const hecSearch = await search('tag=viahec grep beta');
    expect(hecSearch.body[0].Enumerated).toEqual([{ Name: 'n', ValueStr: '1', Value: { Type: 9, Data: expect.any(String) } }]);
    const all = await search('tag=via* words login | count | table count', 'csv');
    expect(all.text).toBe('count\r\n6\r\n');
    const table = await search('tag=via* kv user | count by user | table user count', 'csv');
    expect(table.status).toBe(200);
    expect(table.text).toBe('user,count\r\nann,3\r\nbob,3\r\ncid,3\r\n');
  });

  it('lines: timestamps from the line (syslog, Apache, epoch), else now; noparsetimestamp', async () => {
    const year = new Date().getUTCFullYear();
    const file = ['Jan  2 03:04:05 host sshd: a', '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /" b', '1700000000 c', 'no time d'].join('\n');
    const before = Date.now();
    const r = await request(t.http).post('/api/ingest/lines').set(admin).field('tag', 'stamps').attach('file', Buffer.from(file), 'x.log');
    expect(r.status).toBe(200);
    const s = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: 'tag=stamps', SearchStart: '1999-01-01T00:00:00Z', SearchEnd: '2100-01-01T00:00:00Z' });
    const byWord = Object.fromEntries(s.body.map((e: { TS: string; Data: string }) => [Buffer.from(e.Data, 'base64').toString().slice(-1), e.TS]));
    const jan2 = Date.UTC(year, 0, 2, 3, 4, 5) > Date.now() + 86_400_000 ? year - 1 : year;
    expect(byWord.a).toBe(`${jan2}-01-02T03:04:05.000000Z`);
    expect(byWord.b).toBe('2000-10-10T20:55:36.000000Z');
    expect(byWord.c).toBe('2023-11-14T22:13:20.000000Z');
    expect(Date.parse(byWord.d)).toBeGreaterThanOrEqual(before - 1000);

    const r2 = await request(t.http)
      .post('/api/ingest/lines')
      .set(admin)
      .field('tag', 'stamps2')
      .field('noparsetimestamp', 'true')
      .attach('file', Buffer.from('2001-01-01T00:00:00Z x\n'), 'x.log');
    expect(r2.status).toBe(200);
    const s2 = await request(t.http).post('/api/search/direct').set(admin).send({ SearchString: 'tag=stamps2', Duration: '1h' });
    expect(s2.body).toHaveLength(1);
  });

  it('HEC: raw lines, gzip, ?token=, health, ack', async () => {
    const raw = await hec('/raw?tag=hecraw').set('Authorization', `Splunk ${ingestToken}`).send('2024-06-01T00:00:00Z r1\n2024-06-01T00:00:01Z r2\n');
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({ text: 'Success', code: 0, 'invalid-event-number': 0, ackID: '' });
    const gz = gzipSync(Buffer.from(JSON.stringify({ event: { msg: 'zipped' }, time: '2024-06-01T00:00:02Z', sourcetype: 'hecraw' })));
    const z = await hec('').query({ token: ingestToken, channel: 'abc' }).set('Content-Encoding', 'gzip').set('Content-Type', 'application/octet-stream').send(gz);
    expect(z.status).toBe(200);
    expect(z.body).toEqual({ text: 'Success', code: 0, 'invalid-event-number': 0, ackID: 0 });
    const ack = await hec('/ack?channel=abc')
      .set('Authorization', `Splunk ${ingestToken}`)
      .send({ acks: [0, 7] });
    expect(ack.body).toEqual({ acks: { '0': true, '7': false } });
    const s = await search('tag=hecraw', 'text');
    expect(s.text).toBe('{"msg":"zipped"}\n2024-06-01T00:00:01Z r2\n2024-06-01T00:00:00Z r1\n');
    const health = await request(t.http).get('/services/collector/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ text: 'HEC is healthy', code: 17 });
  });

  it('HEC: missing, bad and under-privileged tokens; bad bodies; nothing stored', async () => {
    const before = await countRows();
    const cases: Array<[request.Test, number, number, string]> = [
      [hec('/event').send('{"event":"x"}'), 401, 2, 'Token is required'],
      [hec('/event').set('Authorization', 'Splunk not-a-real-token').send('{"event":"x"}'), 401, 4, 'Invalid token: Malformed API token'],
      [hec('/event').set('Authorization', `Bearer ${ingestToken}`).send('{"event":"x"}'), 401, 3, 'Invalid authorization: use "Authorization: Splunk <token>"'],
      [hec('/event').set('Authorization', `Splunk ${searchOnlyToken}`).send('{"event":"x"}'), 403, 4, 'Invalid token: API token lacks the Ingest capability'],
      [hec('/event').set('Authorization', `Splunk ${ingestToken}`).send('{"event":'), 400, 6, 'Invalid data format'],
      [hec('/event').set('Authorization', `Splunk ${ingestToken}`).send('{"time":5}{"event":"ok"}'), 400, 12, 'Event field is required'],
      [hec('/event').set('Authorization', `Splunk ${ingestToken}`).send('{"event":""}'), 400, 13, 'Event field cannot be blank'],
      [hec('/event').set('Authorization', `Splunk ${ingestToken}`).send(''), 400, 5, 'No data'],
      [hec('/event').set('Authorization', `Splunk ${ingestToken}`).send('{"event":"ok","time":"later"}'), 400, 6, 'Invalid data format: bad time'],
      [hec('/raw?tag=bad.tag').set('Authorization', `Splunk ${ingestToken}`).send('x\n'), 400, 7, `Incorrect index: tag ${ingestErrors.tagChars}`],
    ];
    for (const [req, status, code, text] of cases) {
      const r = await req;
      expect({ status: r.status, code: r.body.code }).toEqual({ status, code });
      // HEC's shape: the message as `text` and, like every 4xx of the service, as `Error`.
      expect(r.body).toEqual(expect.objectContaining({ text, Error: text }));
    }
    const bomb = gzipSync(Buffer.alloc(200 * 1024, 'a'));
    const big = await hec('/raw').set('Authorization', `Splunk ${ingestToken}`).set('Content-Encoding', 'gzip').send(bomb);
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ text: expect.any(String), code: 27, Error: expect.stringMatching(/^Decompressed body is larger than the limit of .* \(MAX_INGEST_BATCH_BYTES\)$/) });
    const notGzip = await hec('/raw').set('Authorization', `Splunk ${ingestToken}`).set('Content-Encoding', 'gzip').send('plain');
    expect(notGzip.status).toBe(400);
    expect(await countRows()).toBe(before);
  });

  it('rejects bad batches with 400/413 and stores nothing (not even new tags)', async () => {
    const before = await countRows();
    const tagsBefore = await tagRows();
    const good = { TS: '2024-01-01T00:00:00Z', Tag: 'goodtag', Data: b64('x') };
    const put = (body: unknown) =>
      request(t.http)
        .put('/api/ingest/json')
        .set(admin)
        .set('Content-Type', 'application/json')
        .send(body as object);
    const cases: Array<[unknown, number, string, ErrorCode]> = [
      [[good, { ...good, Tag: 'bad,tag' }], 400, `entry 1: Tag ${ingestErrors.tagChars}`, 'INVALID_TAG_NAME'],
      [[good, { ...good, Tag: '' }], 400, 'entry 1: Tag must not be empty', 'INVALID_TAG_NAME'],
      [[good, { ...good, Tag: 'x'.repeat(65) }], 400, 'entry 1: Tag must be at most 64 characters', 'INVALID_TAG_NAME'],
      [[good, { ...good, Tag: 5 }], 400, 'entry 1: Tag must be a string', 'INVALID_TAG_NAME'],
      [[good, { ...good, Data: '!!notbase64' }], 400, `entry 1: ${ingestErrors.base64}`, 'INVALID_BASE64'],
      [[good, { ...good, Data: 'abc' }], 400, `entry 1: ${ingestErrors.base64}`, 'INVALID_BASE64'],
      [[good, { ...good, TS: 'yesterday' }], 400, `entry 1: ${ingestErrors.timestamp}`, 'INVALID_ENTRY_TIMESTAMP'],
      [[good, { ...good, TS: '2024-13-01T00:00:00Z' }], 400, `entry 1: ${ingestErrors.timestamp}`, 'INVALID_ENTRY_TIMESTAMP'],
      [[{ ...good, TS: undefined }], 400, `entry 0: ${ingestErrors.timestamp}`, 'INVALID_ENTRY_TIMESTAMP'],
      [[good, { ...good, SRC: 'not-an-ip' }], 400, 'entry 1: SRC must be an IP address', 'INVALID_SOURCE'],
      [
        [good, { ...good, Enumerated: [{ Name: 'x', Value: { Type: 99, Data: '' } }] }],
        400,
        'entry 1.Enumerated[0]: unsupported enumerated value type 99 (send ValueStr instead)',
        'ENUMERATED_TYPE_UNSUPPORTED',
      ],
      [[good, 'str'], 400, 'entry 1 must be an object', 'NOT_AN_OBJECT'],
      [{ not: 'an array' }, 400, ingestErrors.notAnArray, 'ENTRIES_NOT_AN_ARRAY'],
      [Array.from({ length: 51 }, () => good), 413, ingestErrors.tooManyEntries(50), 'TOO_MANY_ENTRIES'],
      [[{ ...good, Data: b64('x'.repeat(70 * 1024)) }], 413, ingestErrors.bodyTooLarge('64 KiB'), 'BODY_TOO_LARGE'],
    ];
    for (const [body, status, message, code] of cases) {
      const r = await put(body);
      expect({ status: r.status, body: r.body }).toEqual({ status, body: errorBody(message, code) });
    }
    const malformed = await request(t.http).put('/api/ingest/json').set(admin).set('Content-Type', 'application/json').send('[{"TS":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(errorBody(requestErrors.malformedJson, 'MALFORMED_JSON'));

    const lineCases: Array<[request.Test, number, string, ErrorCode]> = [
      [
        request(t.http).post('/api/ingest/lines').set(admin).field('tag', 'bad|tag').attach('file', Buffer.from('a\n'), 'f'),
        400,
        `tag ${ingestErrors.tagChars}`,
        'INVALID_TAG_NAME',
      ],
      [
        request(t.http).post('/api/ingest/lines').set(admin).field('tag', 'ok').field('source', 'nope').attach('file', Buffer.from('a\n'), 'f'),
        400,
        'source must be an IP address',
        'INVALID_SOURCE',
      ],
      [request(t.http).post('/api/ingest/lines').set(admin).field('tag', 'ok'), 400, ingestErrors.filePartRequired, 'INGEST_FILE_PART_REQUIRED'],
      [
        request(t.http).post('/api/ingest/lines').set(admin).attach('file', Buffer.from('a\n'), 'f'),
        400,
        requestErrors.invalidRequest(fieldErrors.maxLength('tag', 64)),
        'VALIDATION_FAILED',
      ],
      [
        request(t.http)
          .post('/api/ingest/lines')
          .set(admin)
          .field('tag', 'ok')
          .attach('file', Buffer.from('a\n'.repeat(51)), 'f'),
        413,
        ingestErrors.tooManyEntries(50),
        'TOO_MANY_ENTRIES',
      ],
      [
        request(t.http)
          .post('/api/ingest/lines')
          .set(admin)
          .field('tag', 'ok')
          .attach('file', Buffer.alloc(65 * 1024, 'a'), 'f'),
        413,
        ingestErrors.fileTooLarge('64 KiB'),
        'FILE_TOO_LARGE',
      ],
    ];
    for (const [req, status, message, code] of lineCases) {
      const r = await req;
      expect({ status: r.status, body: r.body }).toEqual({ status, body: errorBody(message, code) });
    }
    expect(await countRows()).toBe(before);
    expect(await tagRows()).toEqual(tagsBefore);
  });

  it('parallel batches create a new tag and a new day partition once (race-safe)', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request(t.http)
          .put('/api/ingest/json')
          .set(admin)
          .send([{ TS: `2023-07-0${1 + (i % 2)}T00:00:0${i}Z`, Tag: i % 2 ? 'racy' : 'racy2', Data: b64(`r${i}`) }]),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await tagRows()).filter((n) => n.startsWith('racy'))).toEqual(['racy', 'racy2']);
    const racy = (await storedEntries(db)).filter((e) => e.ts >= Date.UTC(2023, 6, 1) * 1000 && e.ts < Date.UTC(2023, 6, 3) * 1000);
    expect(racy).toHaveLength(10);
  });

  it('needs the Ingest capability (tokens) and a login', async () => {
    const user = await createUser(t.http, admin);
    const ok = await request(t.http)
      .put('/api/ingest/json')
      .set(user.headers)
      .send([{ TS: '2024-01-01T00:00:00Z', Tag: 'usertag', Data: b64('u') }]);
    expect(ok.status).toBe(200);
    const noCap = await request(t.http).put('/api/ingest/json').set({ 'Service-Token': searchOnlyToken }).send([]);
    expect(noCap.status).toBe(403);
    expect(noCap.body).toEqual(errorBody('API token lacks the Ingest capability', 'API_TOKEN_LACKS_CAPABILITY'));
    const withCap = await request(t.http)
      .put('/api/ingest/json')
      .set({ 'Service-Token': ingestToken })
      .send([{ TS: '2024-01-01T00:00:00Z', Tag: 'usertag', Data: b64('v') }]);
    expect(withCap.body).toEqual({ Count: 1, Size: 1 });
    const anon = await request(t.http).put('/api/ingest/json').send([]);
    expect(anon.status).toBe(401);
  });
});
