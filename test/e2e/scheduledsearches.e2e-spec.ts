import request from 'supertest';
import { SCHEDULER_CLOCK, Scheduler } from '../../src/scheduledsearches/scheduler.service';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody } from '../setup/errors';
import { createToken } from '../setup/tokens';

/** The scheduled searches' refusals, word for word (src/common/errors/codes.ts). */
const errs = {
  notFound: errorBody('Scheduled search not found', 'SCHEDULED_SEARCH_NOT_FOUND'),
  notYours: (verb: string) => errorBody(`Only the owner or an admin may ${verb} this scheduled search`, 'SCHEDULED_SEARCH_NOT_YOURS'),
  listNotYours: errorBody('Only admins may list the scheduled searches of another user', 'SCHEDULED_SEARCH_LIST_NOT_YOURS'),
};
const lacks = (cap: string) => errorBody(authErrors.tokenLacks(cap), 'API_TOKEN_LACKS_CAPABILITY');
const ALL = { Delete: true, Modify: true, Share: true };
const NONE = { Delete: false, Modify: false, Share: false };
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** The count of a `count` search's CSV: the last column of its last row. */
const lastCount = (csv: string) => csv.trim().split(/\r?\n/).pop()!.split(',').pop();

/** The scheduler's clock, moved by the tests: a slot is due when the clock passes it. */
const clock = { t: new Date('2024-04-01T10:30:30Z'), now: () => new Date(clock.t) };

interface Run {
  ID: number;
  Slot: string;
  Kind: string;
  State: string;
  Attempt: number;
  SearchID: string | null;
  Error: string;
  Duration: number;
  RangeStart: string;
  RangeEnd: string;
  ResultsAvailable: boolean;
}

describe('scheduled searches (e2e)', () => {
  let t: TestApp;
  let scheduler: Scheduler;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;
  const tag = `sch${process.pid}`;

  beforeAll(async () => {
    t = await createTestApp({ schedulerTickMs: 100, scheduledSearchesPerUser: 30 }, undefined, (b) => b.overrideProvider(SCHEDULER_CLOCK).useValue(clock));
    scheduler = t.app.get(Scheduler);
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin, { prefix: 'sowner' });
    member = await createUser(t.http, admin, { prefix: 'smember' });
    stranger = await createUser(t.http, admin, { prefix: 'sstranger' });
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
    // Three entries between 10:00 and 11:00, two between 11:00 and 12:00.
    const times = ['10:05', '10:20', '10:40', '11:10', '11:50'];
    const r = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send(times.map((hm, i) => ({ TS: `2024-04-01T${hm}:00Z`, Tag: tag, Data: b64(`entry ${i}`) })));
    expect(r.status).toBe(200);
  });
  afterAll(() => t.close());

  const create = (h: Headers, body: object) => request(t.http).post('/api/scheduledsearches').set(h).send(body);
  const get = (h: Headers, id: number | string) => request(t.http).get(`/api/scheduledsearches/${id}`).set(h);
  const put = (h: Headers, id: number, body: object) => request(t.http).put(`/api/scheduledsearches/${id}`).set(h).send(body);
  const del = (h: Headers, id: number, suffix = '') => request(t.http).delete(`/api/scheduledsearches/${id}${suffix}`).set(h);
  const list = (h: Headers, path = '/api/scheduledsearches') => request(t.http).get(path).set(h);
  const runsOf = async (h: Headers, id: number): Promise<Run[]> => (await request(t.http).get(`/api/scheduledsearches/${id}/runs`).set(h).expect(200)).body as Run[];
  let seq = 0;
  const base = () => ({ Name: `sched ${++seq}`, Schedule: '0 * * * *', SearchString: `tag=${tag} count`, Duration: -3600 });

  async function make(h: Headers, body: object = {}): Promise<number> {
    const res = await create(h, { ...base(), ...body });
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
    expect(typeof res.body).toBe('number');
    return res.body as number;
  }

  /** Waits for a condition on the runs (the worker polls the queue), never for a fixed time. */
  async function runsUntil(id: number, done: (runs: Run[]) => boolean, ms = 90_000): Promise<Run[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      await scheduler.tick();
      const runs = await runsOf(owner.headers, id);
      if (done(runs)) return runs;
      if (Date.now() > deadline) throw new Error(`runs never matched: ${JSON.stringify(runs)}`);
      await new Promise((r) => setImmediate(r));
    }
  }
  const allDone = (n: number) => (runs: Run[]) => runs.length === n && runs.every((r) => r.State === 'done');

  describe('the API (product shapes)', () => {
    it('POST answers the new ID; GET (by ID or GUID) the ScheduledSearch; PUT the updated one; DELETE null', async () => {
      const id = await make(owner.headers, { Description: 'd', Labels: ['ops'] });
      const got = await get(owner.headers, id).expect(200);
      expect(got.body).toEqual({
        ID: id,
        GUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
        Owner: owner.uid,
        Groups: null,
        Global: false,
        Labels: ['ops'],
        Name: `sched ${seq}`,
        Description: 'd',
        Schedule: '0 * * * *',
        Timezone: '',
        Permissions: 0,
        Updated: expect.stringMatching(/^\d{4}-/),
        Disabled: false,
        OneShot: false,
        DebugMode: false,
        Synced: true,
        ScheduledType: 'search',
        SearchString: `tag=${tag} count`,
        SearchReference: null,
        Duration: -3600,
        SearchSinceLastRun: false,
        BackfillEnabled: false,
        Script: '',
        ScriptVersion: 0,
        Flow: '',
        PersistentMaps: {},
        LastRun: '0001-01-01T00:00:00Z',
        LastRunDuration: 0,
        LastSearchIDs: [],
        LastError: '',
        NextRun: '2024-04-01T11:00:00.000Z',
        Can: ALL,
      });
      expect((await get(owner.headers, got.body.GUID).expect(200)).body.ID).toBe(id);
      const upd = await put(owner.headers, id, { Schedule: '30 8 * * 1-5', Timezone: 'America/New_York', Groups: [gid] }).expect(200);
      // 08:30 in New York on Monday 1 April 2024 is 12:30 UTC (the clock says 10:30 UTC).
      expect(upd.body).toMatchObject({ ID: id, Schedule: '30 8 * * 1-5', Timezone: 'America/New_York', Groups: [gid], Description: 'd', NextRun: '2024-04-01T12:30:00.000Z' });
      expect((await del(owner.headers, id).expect(200)).body).toBeNull();
      expect((await get(owner.headers, id).expect(404)).body).toEqual(errs.notFound);
    });

    it("the product's cron shorthands; next run times for the console", async () => {
      const r = await request(t.http).get('/api/scheduledsearches/nextruns').query({ Schedule: '@daily', count: 3 }).set(owner.headers).expect(200);
      expect(r.body).toEqual({ Next: ['2024-04-02T00:00:00.000Z', '2024-04-03T00:00:00.000Z', '2024-04-04T00:00:00.000Z'], IntervalSeconds: 86400 });
      for (const Schedule of ['@hourly', '@weekly', '@monthly', '@yearly', '@annually', '@midnight', '*/5 * * * *', '0 9 * * MON-FRI']) {
        await del(owner.headers, await make(owner.headers, { Schedule })).expect(200);
      }
      const bad = await request(t.http).get('/api/scheduledsearches/nextruns').query({ Schedule: 'every day' }).set(owner.headers).expect(400);
      expect(bad.body.Code).toBe('SCHEDULE_INVALID');
    });

    it('owner, group member, stranger and admin: read, change, delete; listings', async () => {
      const priv = await make(owner.headers);
      const shared = await make(owner.headers, { Groups: [gid] });
      const global = await make(admin, { Owner: owner.uid, Global: true });
      for (const id of [priv, shared, global]) await get(owner.headers, id).expect(200);
      expect((await get(member.headers, priv).expect(404)).body).toEqual(errs.notFound);
      expect((await get(member.headers, shared).expect(200)).body.Can).toEqual(NONE);
      expect((await get(stranger.headers, shared).expect(404)).body).toEqual(errs.notFound);
      expect((await get(stranger.headers, global).expect(200)).body.Can).toEqual(NONE);
      expect((await put(member.headers, shared, { Name: 'z' }).expect(403)).body).toEqual(errs.notYours('change'));
      expect((await put(member.headers, shared, { OneShot: true }).expect(403)).body).toEqual(errs.notYours('change'));
      expect((await del(member.headers, shared, '/error').expect(403)).body).toEqual(errs.notYours('change'));
      expect((await del(stranger.headers, global).expect(403)).body).toEqual(errs.notYours('delete'));
      await runsOf(member.headers, shared);
      await request(t.http).get(`/api/scheduledsearches/${priv}/runs`).set(stranger.headers).expect(404);
      expect((await get(admin, priv).expect(200)).body.Can).toEqual(ALL);
      await put(admin, priv, { Description: 'by admin' }).expect(200);
      const ids = (r: request.Response) => (r.body as Array<{ ID: number }>).map((m) => m.ID);
      expect(ids(await list(member.headers).expect(200))).toEqual(expect.arrayContaining([shared, global]));
      expect(ids(await list(member.headers))).not.toContain(priv);
      expect(ids(await list(stranger.headers))).not.toContain(shared);
      expect(ids(await list(admin))).not.toContain(priv);
      expect(ids(await list(admin, '/api/scheduledsearches?admin=true'))).toEqual(expect.arrayContaining([priv, shared, global]));
      expect(ids(await list(admin, '/api/scheduledsearches/all').expect(200))).toEqual(expect.arrayContaining([priv, shared, global]));
      await list(owner.headers, '/api/scheduledsearches/all').expect(403);
      expect(ids(await list(owner.headers, `/api/scheduledsearches/user/${owner.uid}`).expect(200))).toEqual(expect.arrayContaining([priv, shared, global]));
      expect((await list(stranger.headers, `/api/scheduledsearches/user/${owner.uid}`).expect(403)).body).toEqual(errs.listNotYours);
      await del(admin, priv).expect(200);
    });

    it('only admins set Global or another owner; non-admins share only with their groups', async () => {
      expect((await create(owner.headers, { ...base(), Global: true }).expect(403)).body.Code).toBeDefined();
      expect((await create(owner.headers, { ...base(), Owner: stranger.uid }).expect(403)).body.Code).toBeDefined();
      const other = await createGroup(t.http, admin);
      expect((await create(owner.headers, { ...base(), Groups: [other] }).expect(403)).body.Code).toBeDefined();
    });

    it('API tokens: ScheduleRead reads, ScheduleWrite writes', async () => {
      const id = await make(owner.headers);
      const none = await createToken(t.http, owner.headers, ['Search']);
      const ro = await createToken(t.http, owner.headers, ['ScheduleRead']);
      const rw = await createToken(t.http, owner.headers, ['ScheduleRead', 'ScheduleWrite']);
      expect((await list(none.headers).expect(403)).body).toEqual(lacks('ScheduleRead'));
      expect((await get(none.headers, id).expect(403)).body).toEqual(lacks('ScheduleRead'));
      expect((await request(t.http).get(`/api/scheduledsearches/${id}/runs`).set(none.headers).expect(403)).body).toEqual(lacks('ScheduleRead'));
      await get(ro.headers, id).expect(200);
      await list(ro.headers).expect(200);
      expect((await create(ro.headers, base()).expect(403)).body).toEqual(lacks('ScheduleWrite'));
      expect((await put(ro.headers, id, { Name: 'x' }).expect(403)).body).toEqual(lacks('ScheduleWrite'));
      expect((await del(ro.headers, id, '/error').expect(403)).body).toEqual(lacks('ScheduleWrite'));
      expect((await del(ro.headers, id).expect(403)).body).toEqual(lacks('ScheduleWrite'));
      await put(rw.headers, id, { Name: 'by token' }).expect(200);
      await list(rw.headers, '/api/scheduledsearches/all').expect(403);
      await del(rw.headers, id).expect(200);
    });

    it('hostile input answers 4xx with {Error, Code}, never 5xx', async () => {
      const cases: Array<[object, number, string?]> = [
        [{ Schedule: 'not a cron' }, 400, 'SCHEDULE_INVALID'],
        [{ Schedule: '* * * * * *' }, 400, 'SCHEDULE_INVALID'],
        [{ Schedule: '61 * * * *' }, 400, 'SCHEDULE_INVALID'],
        [{ Schedule: '@every 1m' }, 400, 'SCHEDULE_INVALID'],
        [{ Schedule: 'x'.repeat(100_000) }, 400],
        [{ Schedule: 5 }, 400],
        [{ Timezone: 'Mars/Olympus' }, 400, 'SCHEDULE_TIMEZONE_INVALID'],
        [{ Duration: 3600 }, 400, 'SCHEDULE_DURATION_INVALID'],
        [{ Duration: -1e9 }, 400, 'SCHEDULE_DURATION_INVALID'],
        [{ Duration: '-60' }, 400],
        [{ Duration: 1.5 }, 400],
        [{ SearchString: '' }, 400, 'SCHEDULED_SEARCH_QUERY_MISSING'],
        [{ SearchString: 'x'.repeat(70_000) }, 400],
        [{ SearchReference: 'nope' }, 400],
        [{ SearchReference: '00000000-0000-4000-8000-000000000000', SearchString: '' }, 404],
        [{ ScheduledType: 'flow', Flow: '{}' }, 400, 'SCHEDULED_TYPE_UNSUPPORTED'],
        [{ ScheduledType: 'script' }, 400],
        [{ Name: 'n'.repeat(300) }, 400],
        [{ Name: null }, 400],
        [{ Groups: ['a'] }, 400],
        [{ Groups: [-1] }, 400],
        [{ Labels: 'x' }, 400],
        [{ Disabled: 'yes' }, 400],
        [{ GUID: 'not-a-guid' }, 400],
      ];
      for (const [patch, status, code] of cases) {
        const r = await create(owner.headers, { ...base(), ...patch });
        expect([r.status, patch]).toEqual([status, patch]);
        expect(Object.keys(r.body).sort()).toEqual(['Code', 'Error']);
        if (code) expect(r.body.Code).toBe(code);
      }
      for (const path of ['abc', '0', '99999999999', '1.5', '%00']) {
        const r = await get(owner.headers, path);
        expect(r.status).toBe(400);
        expect(Object.keys(r.body).sort()).toEqual(['Code', 'Error']);
      }
      await request(t.http).post('/api/scheduledsearches').set(owner.headers).set('Content-Type', 'application/json').send('[1,2').expect(400);
      await request(t.http).post('/api/scheduledsearches').set(owner.headers).send([base()]).expect(400);
    });

    it('a per-user cap (SCHEDULED_SEARCHES_PER_USER) and a shortest interval (SCHEDULE_MIN_INTERVAL_SECONDS)', async () => {
      const capped = await createUser(t.http, admin, { prefix: 'scap' });
      for (let i = 0; i < 30; i++) await make(capped.headers);
      const r = await create(capped.headers, base()).expect(409);
      expect(r.body).toEqual(errorBody('You have 30 scheduled searches, the most SCHEDULED_SEARCHES_PER_USER allows; delete one first', 'SCHEDULED_SEARCH_LIMIT'));
      await request(t.http).delete(`/api/scheduledsearches/user/${capped.uid}`).set(capped.headers).expect(403);
      await request(t.http).delete(`/api/scheduledsearches/user/${capped.uid}`).set(admin).expect(200);
      expect((await list(admin, `/api/scheduledsearches/user/${capped.uid}`)).body).toEqual([]);
      await del(capped.headers, await make(capped.headers, { Schedule: '* * * * *' })).expect(200); // a minute is the default shortest interval
    });
  });

  describe('runs', () => {
    it('a due slot runs once as its owner over [slot + Duration, slot]; its results are a saved search the group can read', async () => {
      clock.t = new Date('2024-04-01T10:30:30Z');
      const id = await make(owner.headers, { Groups: [gid] });
      await scheduler.tick();
      expect(await runsOf(owner.headers, id)).toEqual([]); // 11:00 is not due yet
      clock.t = new Date('2024-04-01T11:00:00.500Z');
      const runs = await runsUntil(id, allDone(1));
      expect(runs[0]).toMatchObject({
        Slot: '2024-04-01T11:00:00.000Z',
        Kind: 'schedule',
        State: 'done',
        Attempt: 1,
        Error: '',
        RangeStart: '2024-04-01T10:00:00.000Z',
        RangeEnd: '2024-04-01T11:00:00.000Z',
        ResultsAvailable: true,
      });
      expect(runs[0].Duration).toBeGreaterThan(0);
      // More ticks at the same time queue nothing more.
      for (let i = 0; i < 5; i++) await scheduler.tick();
      expect(await runsOf(owner.headers, id)).toHaveLength(1);
      const s = (await get(owner.headers, id).expect(200)).body;
      expect(s).toMatchObject({ LastSearchIDs: [runs[0].SearchID], LastError: '', NextRun: '2024-04-01T12:00:00.000Z' });
      expect(s.LastRunDuration).toBeGreaterThan(0);
      expect(s.LastRun).not.toBe('0001-01-01T00:00:00Z');
      for (const h of [owner.headers, member.headers]) {
        const csv = await request(t.http).get(`/api/searchctrl/${runs[0].SearchID}/download/csv`).set(h).expect(200);
        expect(lastCount(csv.text)).toBe('3');
      }
      await request(t.http).get(`/api/searchctrl/${runs[0].SearchID}/download/csv`).set(stranger.headers).expect(404);
    });

    it('missed slots: only the latest without BackfillEnabled; each one with it; a disabled schedule runs none', async () => {
      clock.t = new Date('2024-04-01T10:30:30Z');
      const plain = await make(owner.headers);
      const backfill = await make(owner.headers, { BackfillEnabled: true });
      const disabled = await make(owner.headers, { Disabled: true });
      clock.t = new Date('2024-04-01T13:00:01Z'); // 11:00, 12:00 and 13:00 were missed
      const p = await runsUntil(plain, allDone(1));
      expect(p.map((r) => r.Slot)).toEqual(['2024-04-01T13:00:00.000Z']);
      const b = await runsUntil(backfill, allDone(3));
      expect(b.map((r) => r.Slot)).toEqual(['2024-04-01T13:00:00.000Z', '2024-04-01T12:00:00.000Z', '2024-04-01T11:00:00.000Z']);
      const counts = await Promise.all(b.map(async (r) => lastCount((await request(t.http).get(`/api/searchctrl/${r.SearchID}/download/csv`).set(owner.headers)).text)));
      expect(counts).toEqual(['0', '2', '3']);
      for (let i = 0; i < 3; i++) await scheduler.tick();
      expect(await runsOf(owner.headers, disabled)).toEqual([]);
      // Enabled again: it starts from now (the disabled hours are not backfilled).
      expect((await put(owner.headers, disabled, { Disabled: false }).expect(200)).body.NextRun).toBe('2024-04-01T14:00:00.000Z');
    });

    it('run now (OneShot): one run at once, besides the schedule; a failed run keeps LastError until cleared', async () => {
      clock.t = new Date('2024-04-01T12:10:00Z');
      const id = await make(owner.headers);
      expect((await put(owner.headers, id, { OneShot: true }).expect(200)).body.OneShot).toBe(true);
      const runs = await runsUntil(id, allDone(1));
      expect(runs[0]).toMatchObject({ Kind: 'oneshot', Slot: '2024-04-01T12:10:00.000Z', Error: '' });
      expect((await get(owner.headers, id)).body.OneShot).toBe(false);
      // A query that fails at run time: the error is kept after a later success, until DELETE .../error.
      clock.t = new Date('2024-04-01T12:11:00Z');
      await put(owner.headers, id, { SearchString: `tag=${tag} lookup -r nosuchresource x y z`, OneShot: true }).expect(200);
      const failed = await runsUntil(id, allDone(2));
      expect(failed[0].Error).not.toBe('');
      expect(failed[0].SearchID).toBeNull();
      clock.t = new Date('2024-04-01T12:12:00Z');
      await put(owner.headers, id, { SearchString: `tag=${tag} count`, OneShot: true }).expect(200);
      await runsUntil(id, allDone(3));
      expect((await get(owner.headers, id)).body.LastError).toBe(failed[0].Error);
      await del(owner.headers, id, '/error').expect(200);
      expect((await get(owner.headers, id)).body.LastError).toBe('');
    });

    it("runs with its owner's rights as they are at run time: a library query the owner can no longer read fails the run", async () => {
      const entry = await request(t.http)
        .post('/api/library')
        .set(owner.headers)
        .send({ Name: `q${seq}`, Query: `tag=${tag} count`, GIDs: [gid] })
        .expect(200);
      const guid = entry.body.GUID as string;
      // Creation checks the owner's rights: the stranger cannot point a schedule at it, nor may an admin for them.
      expect((await create(stranger.headers, { ...base(), SearchString: '', SearchReference: guid }).expect(403)).body.Code).toBe('LIBRARY_ENTRY_FORBIDDEN');
      expect((await create(admin, { ...base(), Owner: stranger.uid, SearchString: '', SearchReference: guid }).expect(403)).body.Code).toBe('LIBRARY_ENTRY_FORBIDDEN');
      clock.t = new Date('2024-04-01T12:20:00Z');
      const id = await make(member.headers, { SearchString: '', SearchReference: guid, OneShot: true });
      const memberRuns = async () => (await request(t.http).get(`/api/scheduledsearches/${id}/runs`).set(member.headers).expect(200)).body as Run[];
      const until = async (n: number) => {
        const deadline = Date.now() + 90_000;
        for (;;) {
          await scheduler.tick();
          const r = await memberRuns();
          if (allDone(n)(r) || Date.now() > deadline) return r;
          await new Promise((res) => setImmediate(res));
        }
      };
      expect((await until(1))[0]).toMatchObject({ Error: '', ResultsAvailable: true });
      // The entry's owner stops sharing it: the member's next run cannot read it.
      await request(t.http).put(`/api/library/${guid}`).set(owner.headers).send({ GIDs: [] }).expect(200);
      clock.t = new Date('2024-04-01T12:21:00Z');
      await put(member.headers, id, { OneShot: true }).expect(200);
      const runs = await until(2);
      expect(runs[0]).toMatchObject({ State: 'done', SearchID: null, Error: 'You cannot access this library entry' });
      expect((await get(member.headers, id)).body.LastError).toBe('You cannot access this library entry');
    });
  });
});
