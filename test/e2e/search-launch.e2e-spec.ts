import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, Headers } from '../setup/auth';
import { listen, openWs, Opened } from '../setup/ws';

type Frame = Record<string, any>;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const RANGE = { SearchStart: '2024-06-01T00:00:00Z', SearchEnd: '2024-06-02T00:00:00Z' };
/** V8 still backtracks on counted nested repetitions: this runs until the search timeout. */
const SLOW = 'tag=slowlaunch regex "(?P<x>(a{1,30}){1,30}$)"';

/** One launch for REST and websocket: what is announced is what runs; readers wait for changes, not on timers. */
describe('search launch (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let url: string;
  const opened: Opened[] = [];

  const routed = async (): Promise<Opened> => {
    const o = await openWs(url, [admin.Authorization.slice('Bearer '.length)]);
    opened.push(o);
    o.ws.send(JSON.stringify({ Subs: ['search'] }));
    expect(await o.next()).toEqual({ Resp: 'ACK' });
    return o;
  };
  const send = (o: Opened, type: string, data: unknown) => o.ws.send(JSON.stringify({ type, data }));
  const announce = async (o: Opened, req: Frame): Promise<Frame> => {
    send(o, 'search', req);
    const f = (await o.next()) as Frame;
    expect(f.type).toBe('search');
    expect(f.data.Error).toBeUndefined();
    return f.data as Frame;
  };
  const info = async (id: string): Promise<Frame> => (await request(t.http).get(`/api/searchctrl/${id}`).set(admin).expect(200)).body[0] as Frame;

  beforeAll(async () => {
    t = await createTestApp({ searchTimeoutMs: 4000 });
    url = `${await listen(t)}/api/ws/search`;
    admin = await asAdmin(t.http);
    await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: '2024-06-01T02:00:00Z', Tag: 'slowlaunch', Data: b64('a'.repeat(40) + 'b') }])
      .expect(200);
  });
  afterAll(async () => {
    for (const o of opened) o.ws.terminate();
    await t.close();
  });

  it('a websocket search runs the range it announced, even when its query says start=-1h and the ACK comes seconds later', async () => {
    const o = await routed();
    const resp = await announce(o, { SearchString: 'tag=nothinghere start=-1h' });
    // Relative times resolve to whole seconds: a later compile would give another start.
    await new Promise((r) => setTimeout(r, 1100));
    send(o, 'search', { Ok: true, OutputSearchSubproto: resp.OutputSearchSubproto });
    let got: Frame | undefined;
    for (let i = 0; i < 100 && !got; i++) {
      const r = await request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(admin);
      if (r.status === 200) got = r.body[0] as Frame;
      else await new Promise((res) => setTimeout(res, 20));
    }
    expect({ StartRange: got?.StartRange, EndRange: got?.EndRange }).toEqual({
      StartRange: new Date(resp.SearchStartRange).toISOString(),
      EndRange: new Date(resp.SearchEndRange).toISOString(),
    });
    expect(Date.parse(resp.SearchEndRange) - Date.parse(resp.SearchStartRange)).toBeGreaterThan(3_599_000);
  });

  it('closing a subprotocol answers at once while its stream waits for a running search, and ends the search', async () => {
    const o = await routed();
    const resp = await announce(o, { SearchString: SLOW, ...RANGE });
    send(o, 'search', { Ok: true, OutputSearchSubproto: resp.OutputSearchSubproto });
    const sub = resp.OutputSearchSubproto as string;
    send(o, sub, { ID: 0x11 });
    await new Promise((r) => setTimeout(r, 300));
    expect((await info(resp.SearchID)).State).toBe('ACTIVE');
    const asked = Date.now();
    send(o, sub, { ID: 0x1 });
    expect(await o.next()).toEqual({ type: sub, data: { ID: 0x1 } });
    expect(Date.now() - asked).toBeLessThan(1500);
    // Its only session is released: a search neither backgrounded nor saved goes away.
    let status = 200;
    for (let i = 0; i < 100 && status === 200; i++) {
      status = (await request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(admin)).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(404);
  });

  it('a REST launch and a websocket launch of one request describe the same search', async () => {
    const req = { SearchString: 'tag=nothinghere count', ...RANGE, Name: 'twin' };
    const rest = (await request(t.http).post('/api/searchctrl/launch').set(admin).send(req).expect(200)).body as Frame;
    const o = await routed();
    const resp = await announce(o, req);
    send(o, 'search', { Ok: true, OutputSearchSubproto: resp.OutputSearchSubproto });
    let ws: Frame | undefined;
    for (let i = 0; i < 100 && !ws; i++) {
      const r = await request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(admin);
      if (r.status === 200) ws = r.body[0] as Frame;
      else await new Promise((res) => setTimeout(res, 20));
    }
    const same = (i: Frame) => ({ ...i, ID: 'id', Started: 't', Finished: 't', LastUpdate: 't', Duration: 'd', State: 's', StoreSize: 0, IndexSize: 0, ItemCount: 0 });
    expect(same(ws!)).toEqual(same(rest.Info));
    expect({ RenderModule: resp.RenderModule, RenderCmd: resp.RenderCmd }).toEqual({ RenderModule: rest.RenderModule, RenderCmd: rest.RenderCmd });
  });
});
