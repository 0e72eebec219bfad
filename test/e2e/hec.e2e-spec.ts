import request from 'supertest';
import { Client } from 'pg';
import { asAdmin, createUser, Headers } from '../setup/auth';
import { createTestApp, TestApp } from '../setup/app';
import { createToken } from '../setup/tokens';
import { HecAcksService } from '../../src/ingest/hec-acks.service';
import { storedData, storedEntries } from '../setup/blocks';

/** Regressions of issue 13: partial batches, acks, sourcetypes, the HEC credential, deep JSON. */

const splunk = (secret: string): Headers => ({ Authorization: `Splunk ${secret}` });
const events = (...evs: unknown[]) => evs.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n');

describe('HEC (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;
  let token: string;

  const hec = (path: string) => request(t.http).post(`/services/collector${path}`);
  /** Stored data starting with `prefix`, sorted. */
  const stored = (prefix: string) => storedData(db, prefix);
  const rowsLike = async (prefix: string) =>
    (await storedEntries(db)).filter((e) => e.data.toString('utf8').startsWith(prefix)).sort((a, b) => a.data.toString('utf8').localeCompare(b.data.toString('utf8')));

  beforeAll(async () => {
    t = await createTestApp({ maxIngestBatchBytes: 1024 * 1024, hecSourcetypeTags: { 'aws:cloudtrail': 'cloudtrail' } });
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    token = (await createToken(t.http, admin, ['Ingest'])).secret;
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('stores the events before a bad one, answers 400 with its code and invalid-event-number, and stores nothing after it', async () => {
    const body = events({ event: 'part-a0' }, { event: 'part-a1' }, { time: 5 }, { event: 'part-a3' });
    const r = await hec('/event').set(splunk(token)).set('X-Splunk-Request-Channel', 'c-partial').send(body);
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { text: 'Event field is required', code: 12, 'invalid-event-number': 2, Error: 'Event field is required' },
    });
    expect(await stored('part-a')).toEqual(['part-a0', 'part-a1']);

    const malformed = await hec('/event')
      .set(splunk(token))
      .send(events({ event: 'part-b0' }, '{"event":"part-b1"', { event: 'part-b2' }));
    expect({ status: malformed.status, body: malformed.body }).toEqual({
      status: 400,
      body: { text: 'Invalid data format', code: 6, 'invalid-event-number': 1, Error: 'Invalid data format' },
    });
    expect(await stored('part-b')).toEqual(['part-b0']);

    const firstBad = await hec('/event')
      .set(splunk(token))
      .send(events({ event: '' }, { event: 'part-c1' }));
    expect([firstBad.status, firstBad.body.code, firstBad.body['invalid-event-number']]).toEqual([400, 13, 0]);
    expect(await stored('part-c')).toEqual([]);
  });

  it('stores the good events of a batch once, however often a shipper resends it after the 400 (syslog-ng does)', async () => {
    const body = events({ event: 'retry-0' }, { event: 'retry-1' }, { event: 'retry-2', time: 'not-a-time' }, { event: 'retry-3' });
    for (let attempt = 0; attempt < 4; attempt++) {
      const r = await hec('/event').set(splunk(token)).send(body);
      expect([r.status, r.body.code, r.body['invalid-event-number']]).toEqual([400, 6, 2]);
    }
    expect(await stored('retry-')).toEqual(['retry-0', 'retry-1']);
    // The same events in another batch are new data, stored again.
    await hec('/event')
      .set(splunk(token))
      .send(events({ event: 'retry-0' }))
      .expect(200);
    expect(await stored('retry-')).toEqual(['retry-0', 'retry-0', 'retry-1']);
  });

  it('takes ?host=, ?source= and ?index= for every /raw line, as Splunk does', async () => {
    await hec('/raw?sourcetype=linux:syslog&host=web01&source=/var/log/app.log&index=main').set(splunk(token)).send('raw-meta-1\nraw-meta-2\n').expect(200);
    await hec('/raw?host=10.1.2.3').set(splunk(token)).send('raw-meta-3\n').expect(200);
    const rows = await rowsLike('raw-meta-');
    expect(rows.map((r) => r.evs)).toEqual([
      [
        ['source', '/var/log/app.log'],
        ['index', 'main'],
        ['host', 'web01'],
      ],
      [
        ['source', '/var/log/app.log'],
        ['index', 'main'],
        ['host', 'web01'],
      ],
      null,
    ]);
    expect(rows[2].src).toBe('10.1.2.3');
  });

  it('refuses whole requests (bad ?tag=, bad channel) before storing anything', async () => {
    const badTag = await hec('/event?tag=bad.tag')
      .set(splunk(token))
      .send(events({ event: 'whole-1' }, { event: 'whole-2' }));
    expect([badTag.status, badTag.body.code]).toEqual([400, 7]);
    const badChannel = await hec('/event')
      .set(splunk(token))
      .set('X-Splunk-Request-Channel', 'x'.repeat(129))
      .send(events({ event: 'whole-3' }));
    expect({ status: badChannel.status, body: badChannel.body }).toEqual({ status: 400, body: { text: 'Invalid data channel', code: 11, Error: 'Invalid data channel' } });
    expect(await stored('whole-')).toEqual([]);
  });

  it('answers deeply nested JSON with a HEC-shaped 400, never 500', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    for (const body of [`{"event":${deep}}`, deep, '['.repeat(200_000), events({ event: 'deep-ok' }, `{"event":{"a":${deep}}}`)]) {
      const r = await hec('/event').set(splunk(token)).send(body);
      expect({ status: r.status, code: r.body.code, Error: r.body.Error }).toEqual({ status: 400, code: 6, Error: expect.stringMatching(/^Invalid data format/) });
    }
    expect(await stored('deep-ok')).toEqual(['deep-ok']);
    const ack = await hec('/ack?channel=deep').set(splunk(token)).send(`{"acks":${deep}}`);
    expect([ack.status, ack.body.code, ack.body.Error]).toEqual([400, 6, 'Invalid data format: JSON nests deeper than 64 levels']);
  });

  it('maps sourcetypes to valid tags and keeps source, index and a host name as enumerated values', async () => {
    const body = events(
      { event: 'st-1', sourcetype: 'aws:cloudtrail', source: 's3://bucket', index: 'main', host: 'web-1.example' },
      { event: 'st-2', sourcetype: 'my:type.v2', host: '10.1.2.3', fields: { host: 'from-fields', n: 1 } },
      { event: 'st-3', sourcetype: 'aws:cloudtrail' },
    );
    const r = await hec('/event').set(splunk(token)).send(body);
    expect(r.status).toBe(200);
    const rows = (await rowsLike('st-')).map((e) => ({ d: e.data.toString('utf8'), tag: e.tagName, src: e.src, evs: e.evs }));
    expect(rows).toEqual([
      {
        d: 'st-1',
        tag: 'cloudtrail',
        src: '127.0.0.1',
        evs: [
          ['source', 's3://bucket'],
          ['index', 'main'],
          ['host', 'web-1.example'],
        ],
      },
      {
        d: 'st-2',
        tag: 'my_type_v2',
        src: '10.1.2.3',
        evs: [
          ['host', 'from-fields'],
          ['n', 1],
        ],
      },
      { d: 'st-3', tag: 'cloudtrail', src: '127.0.0.1', evs: null },
    ]);
    const raw = await hec('/raw?sourcetype=a:b').set(splunk(token)).send('st-raw\n');
    expect(raw.status).toBe(200);
    expect((await rowsLike('st-raw')).map((e) => e.tagName)).toEqual(['a_b']);
  });

  it('declares the Splunk credential in OpenAPI and checks it in the global guard (HEC-shaped errors)', async () => {
    const doc = (await request(t.http).get('/api/openapi.json').expect(200)).body;
    expect(doc.components.securitySchemes.splunk).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }));
    for (const path of ['/services/collector', '/services/collector/event', '/services/collector/raw', '/services/collector/ack']) {
      const op = doc.paths[path].post;
      expect({ path, access: op['x-access'], capability: op['x-capability'], security: op.security }).toEqual({
        path,
        access: 'user',
        capability: 'Ingest',
        security: [{ splunk: [] }],
      });
      expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'token', in: 'query' })]));
    }
    expect(doc.paths['/services/collector/health'].get['x-access']).toBe('public');
    const jwt = await hec('/event')
      .set(admin)
      .send(events({ event: 'jwt' }));
    const scheme = 'Invalid authorization: use "Authorization: Splunk <token>"';
    expect({ status: jwt.status, body: jwt.body }).toEqual({ status: 401, body: { text: scheme, code: 3, Error: scheme } });
    const serviceToken = await hec('/ack')
      .set('Service-Token', token)
      .send({ acks: [0] });
    expect({ status: serviceToken.status, code: serviceToken.body.code }).toEqual({ status: 401, code: 2 });
    const viaQuery = await hec(`/event?token=${token}`).send(events({ event: 'via-query' }));
    expect(viaQuery.body).toEqual({ text: 'Success', code: 0, 'invalid-event-number': 0, ackID: '' });
  });
});

describe('HEC acks (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;
  let token: string;
  let otherUsersToken: string;

  const hec = (path: string) => request(t.http).post(`/services/collector${path}`);
  const send = (channel: string, word: string) =>
    hec('/event')
      .set(splunk(token))
      .set('X-Splunk-Request-Channel', channel)
      .send(events({ event: word }));
  const acks = (channel: string | undefined, ids: unknown[], secret = token) => {
    const r = hec(channel === undefined ? '/ack' : `/ack?channel=${channel}`).set(splunk(secret));
    return r.send({ acks: ids });
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    token = (await createToken(t.http, admin, ['Ingest'])).secret;
    const other = await createUser(t.http, admin);
    otherUsersToken = (await createToken(t.http, other.headers, ['Ingest'])).secret;
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('numbers ack IDs per channel, answers them only on that channel to that owner, and keeps them across a restart', async () => {
    expect((await send('chan-a', 'ack-1')).body.ackID).toBe(0);
    expect((await send('chan-a', 'ack-2')).body.ackID).toBe(1);
    const b = await hec('/event?channel=chan-b')
      .set(splunk(token))
      .send(events({ event: 'ack-3' }));
    expect(b.body).toEqual({ text: 'Success', code: 0, 'invalid-event-number': 0, ackID: 0 });

    expect((await acks('chan-a', [0, 1, 2, -1, 'x', 1.5])).body).toEqual({ acks: { '0': true, '1': true, '2': false, '-1': false, x: false, '1.5': false } });
    expect((await acks('chan-b', [0, 1])).body).toEqual({ acks: { '0': true, '1': false } });
    expect((await acks('chan-c', [0])).body).toEqual({ acks: { '0': false } });
    const viaHeader = await hec('/ack')
      .set(splunk(token))
      .set('X-Splunk-Request-Channel', 'chan-a')
      .send({ acks: [1] });
    expect(viaHeader.body).toEqual({ acks: { '1': true } });
    expect((await acks('chan-a', [0, 1], otherUsersToken)).body).toEqual({ acks: { '0': false, '1': false } });
    const none = await acks(undefined, [0]);
    expect({ status: none.status, body: none.body }).toEqual({ status: 400, body: { text: 'Data channel is missing', code: 10, Error: 'Data channel is missing' } });

    // Restart on the same database, with acks now kept for one second.
    await t.close();
    t = await createTestApp({ hecAckRetentionSeconds: 1 }, t.databaseUrl);
    expect((await acks('chan-a', [0, 1])).body).toEqual({ acks: { '0': true, '1': true } });
    expect((await send('chan-a', 'ack-4')).body.ackID).toBe(2);
    expect((await send('chan-d', 'ack-5')).body.ackID).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await acks('chan-d', [0])).body).toEqual({ acks: { '0': false } });
    await t.app.get(HecAcksService).sweep();
    const left = await db.query(`SELECT channel, ack_id::int AS id FROM hec_ack WHERE channel IN ('chan-a', 'chan-d') ORDER BY channel, ack_id`);
    expect(left.rows).toEqual([
      { channel: 'chan-a', id: 0 },
      { channel: 'chan-a', id: 1 },
    ]);
    expect((await db.query(`SELECT count(*)::int AS n FROM hec_ack_channel WHERE channel = 'chan-d'`)).rows[0].n).toBe(0);
  });
});
