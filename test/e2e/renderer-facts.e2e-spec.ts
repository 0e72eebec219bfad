/**
 * What a renderer is, in one place (issue 15): the direct search, the persistent search's
 * downloads and renderer pages, POST /api/parse, SearchInfo and the websocket all answer the same.
 */
import { Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers } from '../setup/auth';
import { binaryParser } from '../setup/blobs';
import { listen, openWs } from '../setup/ws';

const RANGE = { SearchStart: '2024-06-01T00:00:00Z', SearchEnd: '2024-06-02T00:00:00Z' };
const DOCS = [
  { user: 'ann', status: 200, note: 'plain' },
  { user: 'bob', status: 500, note: 'has "quotes", and a comma' },
  { user: 'ann', status: 404, note: 'line\nbreak' },
  { user: 'cid', status: 200 },
];

type Frame = Record<string, any>;

async function launch(http: Server, h: Headers, query: string): Promise<Frame> {
  const r = await request(http)
    .post('/api/searchctrl/launch')
    .set(h)
    .send({ SearchString: query, ...RANGE });
  if (r.status !== 200) throw new Error(`launch failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Frame;
}

async function finished(http: Server, h: Headers, id: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const s = await request(http).get(`/api/searchctrl/${id}/stats`).set(h).expect(200);
    if (s.body.Finished) {
      expect(s.body.Error).toBeUndefined();
      return;
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('search did not finish');
}

describe('renderer facts across direct search, persistent searches and the websocket (e2e)', () => {
  let t: TestApp;
  let user: Headers;
  const tag = `facts${process.pid}`;
  const bytesOf = async (req: request.Test): Promise<{ type: string; body: Buffer }> => {
    const r = await req.buffer(true).parse(binaryParser).expect(200);
    return { type: r.headers['content-type'] as string, body: r.body as Buffer };
  };
  const direct = (query: string, format: string) =>
    bytesOf(
      request(t.http)
        .post('/api/search/direct')
        .set(user)
        .send({ SearchString: query, Format: format, ...RANGE }),
    );
  const download = (id: string, format: string) => bytesOf(request(t.http).get(`/api/searchctrl/${id}/download/${format}`).set(user));

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await asAdmin(t.http);
    user = (await createUser(t.http, admin)).headers;
    const body = DOCS.map((d, i) => ({ TS: `2024-06-01T01:00:0${i}Z`, Tag: tag, SRC: '10.1.2.3', Data: Buffer.from(JSON.stringify(d)).toString('base64') }));
    await request(t.http).put('/api/ingest/json').set(admin).send(body).expect(200);
  });
  afterAll(() => t.close());

  it('parse and SearchInfo agree on TimeZoomDisabled (the query decides: stats count is a summary, whatever renders it)', async () => {
    const cases: Array<[string, boolean]> = [
      [`tag=${tag}`, false],
      [`tag=${tag} stats count`, true],
      [`tag=${tag} json user | count by user | table user count`, true],
      [`tag=${tag} json user | table user`, false],
      [`tag=${tag} json user | table -nt user`, true],
      [`tag=${tag} json user | stats count over 1m | chart count`, false],
      [`tag=${tag} json user | count by user | gauge count`, true],
    ];
    for (const [query, disabled] of cases) {
      const parsed = await request(t.http).post('/api/parse').set(user).send({ SearchString: query }).expect(200);
      const l = await launch(t.http, user, query);
      const details = await request(t.http).get(`/api/searchctrl/${l.SearchID}/details`).set(user).expect(200);
      expect([query, parsed.body.TimeZoomDisabled, l.Info.TimeZoomDisabled, details.body.TimeZoomDisabled]).toEqual([query, disabled, disabled, disabled]);
      await finished(t.http, user, l.SearchID);
      await request(t.http).delete(`/api/searchctrl/${l.SearchID}`).set(user).expect(200);
    }
  });

  it('entries: a download of a persistent search is byte for byte the direct search, streamed or finished', async () => {
    const streamed = `tag=${tag} json user status`;
    const condensing = `tag=${tag} json user status | sort by time desc`;
    const l = await launch(t.http, user, streamed);
    await finished(t.http, user, l.SearchID);
    for (const format of ['json', 'csv', 'text']) {
      const d = await direct(streamed, format);
      expect([format, await download(l.SearchID, format)]).toEqual([format, d]);
      expect([format, await direct(condensing, format)]).toEqual([format, d]);
    }
    const csv = (await direct(streamed, 'csv')).body.toString();
    expect(csv.split('\r\n').slice(0, 3)).toEqual([
      'TIMESTAMP,TAG,SRC,DATA,user,status',
      `2024-06-01T01:00:03.000000Z,${tag},10.1.2.3,"{""user"":""cid"",""status"":200}",cid,200`,
      `2024-06-01T01:00:02.000000Z,${tag},10.1.2.3,"{""user"":""ann"",""status"":404,""note"":""line\\nbreak""}",ann,404`,
    ]);
  });

  it('condensed results: downloads are the direct search (chart header TIMESTAMP, CRLF), json is the page', async () => {
    for (const [query, renderer] of [
      [`tag=${tag} json user | count by user | table user count`, 'table'],
      [`tag=${tag} json user | stats count by user over 1h | chart count by user`, 'chart'],
      [`tag=${tag} json user | count by user | gauge count`, 'gauge'],
    ]) {
      const l = await launch(t.http, user, query);
      await finished(t.http, user, l.SearchID);
      const page = await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/${renderer}`).set(user).expect(200);
      for (const format of ['json', 'csv']) expect([renderer, format, await download(l.SearchID, format)]).toEqual([renderer, format, await direct(query, format)]);
      expect(JSON.parse((await download(l.SearchID, 'json')).body.toString())).toEqual(page.body.Entries);
    }
    // every hour of the day is a window of the chart; the entries are in the second
    const hours = Array.from({ length: 24 }, (_, h) => `2024-06-01T${String(h).padStart(2, '0')}:00:00.000000Z,${h === 1 ? '2,1,1' : '0,0,0'}\r\n`);
    expect((await direct(`tag=${tag} json user | stats count by user over 1h | chart count by user`, 'csv')).body.toString()).toBe(`TIMESTAMP,ann,bob,cid\r\n${hours.join('')}`);
  });

  it('websocket REQ_STREAMING of a finished gauge sends its one result, then the final empty block', async () => {
    const url = `${await listen(t)}/api/ws/search`;
    const o = await openWs(url, [user.Authorization.slice('Bearer '.length)]);
    try {
      o.ws.send(JSON.stringify({ Subs: ['PONG', 'parse', 'search', 'attach'] }));
      expect(await o.next()).toEqual({ Resp: 'ACK' });
      const send = (type: string, data: unknown) => o.ws.send(JSON.stringify({ type, data }));
      send('search', { SearchString: `tag=${tag} json user | count by user | gauge count`, ...RANGE });
      const resp = (await o.next()).data as Frame;
      expect(resp.TimeZoomDisabled).toBe(true);
      const sub = resp.OutputSearchSubproto as string;
      send('search', { Ok: true, OutputSearchSubproto: sub });
      for (let i = 0; ; i++) {
        send(sub, { ID: 3 });
        if ((((await o.next()).data as Frame).Finished as boolean) || i > 300) break;
        await new Promise((res) => setTimeout(res, 50));
      }
      send(sub, { ID: 0x11 });
      const first = (await o.next()).data as Frame;
      expect([first.ID, first.Entries, first.AdditionalEntries]).toEqual([0x11, [{ Name: 'count', Magnitude: expect.any(Number), Min: 0, Max: expect.any(Number) }], true]);
      const last = (await o.next()).data as Frame;
      expect([last.ID, last.Entries, last.AdditionalEntries, last.Finished]).toEqual([0x11, [], false, true]);
      send(sub, { ID: 3 });
      expect(((await o.next()).data as Frame).ID).toBe(3); // the next answer is the count: nothing else was streamed
    } finally {
      o.ws.terminate();
    }
  });
});
