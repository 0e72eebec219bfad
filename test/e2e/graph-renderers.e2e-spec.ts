/**
 * hex, stackgraph, wordcloud and pointmap end to end (issue 16): listed in /api/info/rendermodules,
 * served on the renderer pages, in their download formats (json, csv, archive) and by direct search,
 * and an archive of a stackgraph or pointmap search imports back.
 */
import { Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers } from '../setup/auth';

const RANGE = { SearchStart: '2024-04-01T00:00:00Z', SearchEnd: '2024-04-02T00:00:00Z' };
const DOCS = [
  { host: 'web1', status: 200, Location: '45.5 -122.25' },
  { host: 'web1', status: 200, Location: '45.5 -122.25' },
  { host: 'web1', status: 500, Location: 'nowhere' },
  { host: 'web2', status: 404, Location: '10 20' },
];

async function launchFinished(http: Server, h: Headers, query: string): Promise<string> {
  const r = await request(http)
    .post('/api/searchctrl/launch')
    .set(h)
    .send({ SearchString: query, ...RANGE });
  if (r.status !== 200) throw new Error(`launch failed ${r.status} ${JSON.stringify(r.body)}`);
  const id = r.body.SearchID as string;
  for (let i = 0; i < 300; i++) {
    const s = await request(http).get(`/api/searchctrl/${id}/stats`).set(h).expect(200);
    if (s.body.Finished) {
      expect(s.body.Error).toBeUndefined();
      return id;
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('search did not finish');
}

describe('graph renderers (e2e)', () => {
  let t: TestApp;
  let user: Headers;
  const tag = `graphs${process.pid}`;
  const stackQuery = `tag=${tag} json host status | count by host status | stackgraph host status count`;
  const stack = [
    {
      Key: 'web1',
      Values: [
        { Label: '200', Value: 2 },
        { Label: '500', Value: 1 },
      ],
    },
    { Key: 'web2', Values: [{ Label: '404', Value: 1 }] },
  ];

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await asAdmin(t.http);
    user = (await createUser(t.http, admin)).headers;
    const body = DOCS.map((d, i) => ({ TS: `2024-04-01T01:00:0${i}Z`, Tag: tag, Data: Buffer.from(JSON.stringify(d)).toString('base64') }));
    await request(t.http).put('/api/ingest/json').set(admin).send(body).expect(200);
  });
  afterAll(() => t.close());

  it('are listed in /api/info/rendermodules', async () => {
    const r = await request(t.http).get('/api/info/rendermodules').set(user).expect(200);
    const names = (r.body as Array<{ Name: string; Description: string }>).map((m) => m.Name);
    expect(names).toEqual(expect.arrayContaining(['hex', 'stackgraph', 'wordcloud', 'pointmap']));
    // And the modules of the same issue, with what they do to the pipeline.
    const m = await request(t.http).get('/api/info/searchmodules').set(user).expect(200);
    const byName = new Map((m.body as Array<{ Name: string }>).map((x) => [x.Name, x]));
    for (const [n, sorting, collapsing] of [
      ['first', false, true],
      ['last', false, true],
      ['top', true, true],
      ['bottom', true, true],
      ['nosort', false, false],
    ] as const) {
      expect(byName.get(n)).toEqual({
        Name: n,
        Info: expect.stringMatching(/.{20}/),
        Examples: expect.arrayContaining([expect.stringContaining(n)]),
        FrontendOnly: false,
        Sorting: sorting,
        Collapsing: collapsing,
      });
    }
  });

  it('stackgraph: renderer page, json and csv downloads, direct search, archive round trip', async () => {
    const id = await launchFinished(t.http, user, stackQuery);
    const page = await request(t.http).get(`/api/searchctrl/${id}/renderer/stackgraph`).set(user).expect(200);
    expect(page.body).toEqual(expect.objectContaining({ EntryCount: 3, Finished: true, Entries: stack }));
    const json = await request(t.http).get(`/api/searchctrl/${id}/download/json`).set(user).expect(200);
    expect(JSON.parse(json.text)).toEqual(stack);
    const csv = await request(t.http).get(`/api/searchctrl/${id}/download/csv`).set(user).expect(200);
    expect(csv.text).toBe('Key,Label,Value\r\nweb1,200,2\r\nweb1,500,1\r\nweb2,404,1\r\n');
    await request(t.http).get(`/api/searchctrl/${id}/download/text`).set(user).expect(400);
    const direct = await request(t.http)
      .post('/api/search/direct')
      .set(user)
      .send({ SearchString: stackQuery, Format: 'csv', ...RANGE })
      .expect(200);
    expect(direct.text).toBe('Key,Label,Value\r\nweb1,200,2\r\nweb1,500,1\r\nweb2,404,1\r\n');

    const archive = await request(t.http)
      .get(`/api/searchctrl/${id}/download/archive`)
      .set(user)
      .buffer(true)
      .parse((res, cb) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => cb(null, Buffer.concat(parts)));
      })
      .expect(200);
    const imp = await request(t.http)
      .post('/api/searchctrl/import')
      .set(user)
      .attach('file', archive.body as Buffer, 'stack.tar.gz')
      .expect(200);
    const again = await request(t.http).get(`/api/searchctrl/${imp.body.ID}/renderer/stackgraph`).set(user).expect(200);
    expect(again.body.Entries).toEqual(stack);
  });

  it('pointmap: points with metadata on the page and in csv; wordcloud in the gauge shape; hex as text', async () => {
    const id = await launchFinished(t.http, user, `tag=${tag} json host Location | pointmap host`);
    const page = await request(t.http).get(`/api/searchctrl/${id}/renderer/pointmap`).set(user).expect(200);
    expect(page.body.Entries).toEqual([
      { Loc: { Lat: 10, Long: 20 }, Metadata: [{ host: 'web2' }] },
      { Loc: { Lat: 45.5, Long: -122.25 }, Metadata: [{ host: 'web1' }] },
      { Loc: { Lat: 45.5, Long: -122.25 }, Metadata: [{ host: 'web1' }] },
    ]);
    const csv = await request(t.http).get(`/api/searchctrl/${id}/download/csv`).set(user).expect(200);
    expect(csv.text).toBe('Lat,Long,host\r\n10,20,web2\r\n45.5,-122.25,web1\r\n45.5,-122.25,web1\r\n');

    const words = await request(t.http)
      .post('/api/search/direct')
      .set(user)
      .send({ SearchString: `tag=${tag} json host | count by host | wordcloud count`, ...RANGE })
      .expect(200);
    expect(words.body).toEqual([
      { Name: 'web1', Magnitude: 3, Min: 1, Max: 3 },
      { Name: 'web2', Magnitude: 1, Min: 1, Max: 3 },
    ]);

    const hex = await launchFinished(t.http, user, `tag=${tag} hex`);
    const hp = await request(t.http).get(`/api/searchctrl/${hex}/renderer/hex`).set(user).expect(200);
    expect(hp.body.EntryCount).toBe(4);
    expect(Buffer.from(hp.body.Entries[0].Data, 'base64').toString()).toBe(JSON.stringify(DOCS[3]));
    const text = await request(t.http).get(`/api/searchctrl/${hex}/download/text`).set(user).expect(200);
    expect(text.text.split('\n')).toHaveLength(5);
  });
});
