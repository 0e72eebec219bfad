import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTestDatabase } from '../setup/db';
import { b64, Headers, HttpResult, ServiceProcess, sleep } from '../faults/service';
import { prepareAvailabilityAttacks } from './availability-setup';
import { preparePrivilegeAttacks } from './privilege-setup';

/**
 * One hostile user against everyone else (issue: "one signed-in user must not be able to
 * freeze, crash or fill up the service"). Victims measure whoami, a 100-entry ingest and a small
 * search, first alone (quiet), then while the attacker loops the worst it can do with a log
 * shipper's and an analyst's rights: a catastrophic and an expensive regular expression after a
 * condensing module, a direct search of every row it ingested, hostile archive imports, and a
 * storm of stats websockets. Victims' p99 must stay under HOSTILE_P99_FACTOR (2) x quiet (or
 * quiet + HOSTILE_P99_SLACK_MS, for tiny baselines), RSS under HOSTILE_RSS_MB, nothing crashes.
 */
/** Quiet and hostile windows alternate, ROUNDS times: noise from elsewhere on a shared machine falls on both alike. */
const ROUNDS = Number(process.env.HOSTILE_ROUNDS || 4);
const QUIET_S = Number(process.env.HOSTILE_QUIET_SECONDS || 10);
const HOSTILE_S = Number(process.env.HOSTILE_SECONDS || 15);
const FACTOR = Number(process.env.HOSTILE_P99_FACTOR || 2);
const SLACK_MS = Number(process.env.HOSTILE_P99_SLACK_MS || 25);
const RSS_MB = Number(process.env.HOSTILE_RSS_MB || 1200);
const BIG_ROWS = Number(process.env.HOSTILE_BIG_ROWS || 300_000);
const ATTACKER_NICE = Number(process.env.HOSTILE_ATTACKER_NICE || 0);
/** SEARCH_LONG_CONCURRENCY for the service under test when set (0: no long lane, as before it existed), else its default. */
const LONG_LANE = process.env.HOSTILE_SEARCH_LONG_CONCURRENCY;
/**
 * Which attacks run (comma-separated; default the first five): regex, slowregex, rows, bomb, sockets;
 * also pending (big websocket searches never acknowledged), heads (2,400 anonymous unfinished request
 * heads from eight other addresses) and wsflood (one user trying to hold 500 stats websockets);
 * privilege (a narrow token widening itself, a reused GUID shared with a group, a table -save run
 * as another owner's dashboard query: each must be refused with 403).
 */
const ATTACKS = new Set((process.env.HOSTILE_ATTACKS || 'regex,slowregex,rows,bomb,sockets').split(','));
const VICTIMS = 3;
const SOCKETS = 40;
const RANGE = () => ({ SearchStart: new Date(Date.now() - 3600_000).toISOString(), SearchEnd: new Date(Date.now() + 60_000).toISOString() });

type VictimOp = 'whoami' | 'ingest' | 'search';
interface Sample {
  lat: Map<VictimOp, number[]>;
  errors: string[];
}
const addTo = (into: Sample, more: Sample) => {
  for (const [op, xs] of more.lat) into.lat.set(op, [...(into.lat.get(op) ?? []), ...xs]);
  into.errors.push(...more.errors);
};
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : 0);
/** CPU seconds used so far (utime + stime, 100 ticks a second) by a process's main thread, its other threads, and the machine. */
const ticks = (stat: string) =>
  stat
    .split(') ')[1]
    .split(' ')
    .slice(11, 13)
    .reduce((a, b) => a + Number(b), 0) / 100;
const cpuNow = (pid: number) => {
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  const of = (tid: string) => {
    try {
      return ticks(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
    } catch {
      return 0; // the thread ended
    }
  };
  const main = of(String(pid));
  const threads = tasks.filter((t) => t !== String(pid)).reduce((a, t) => a + of(t), 0);
  const [user, nice, system] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1, 4).map(Number);
  return { main, threads, machine: (user + nice + system) / 100 };
};
type Cpu = ReturnType<typeof cpuNow>;
/** Adds the CPU used between `before` and now to `into`, and the window's length in seconds. */
const addCpu = (into: Cpu & { seconds: number }, before: Cpu, pid: number, seconds: number) => {
  const now = cpuNow(pid);
  into.main += now.main - before.main;
  into.threads += now.threads - before.threads;
  into.machine += now.machine - before.machine;
  into.seconds += seconds;
};
/** Cores busy on average: service main thread, its worker threads (exited threads are not counted), the whole machine. */
const perSecond = (c: Cpu & { seconds: number }) => ({
  main: +(c.main / c.seconds).toFixed(2),
  threads: +(c.threads / c.seconds).toFixed(2),
  machine: +(c.machine / c.seconds).toFixed(2),
});
const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

describe('soak with a hostile user', () => {
  let svc: ServiceProcess;
  let admin: Headers;
  const victims: Headers[] = [];
  let attacker: Headers;
  /** What the attacks of availability-attacks.js were given (prepared once, before the first round). */
  let prepared: Record<string, string> = {};

  beforeAll(async () => {
    svc = new ServiceProcess(await createTestDatabase(), { LOG_LEVEL: 'warn', SEARCH_TIMEOUT_MS: '3000', ...(LONG_LANE ? { SEARCH_LONG_CONCURRENCY: LONG_LANE } : {}) });
    await svc.start();
    admin = await svc.asAdmin();
    const make = async (name: string) => {
      const pass = `${name}-password`;
      const res = await svc.request('POST', '/api/users', { headers: admin, json: { User: name, Pass: pass, Name: name, Email: `${name}@example.com`, Admin: false } });
      expect(res.status).toBe(200);
      return svc.login(name, pass);
    };
    for (let i = 0; i < VICTIMS; i++) victims.push(await make(`victim${i}`));
    attacker = await make('attacker');
    // The attacker's data: one catastrophic line and a big tag, in batches a shipper would send.
    await svc.request('PUT', '/api/ingest/json', { headers: attacker, json: [{ TS: new Date().toISOString(), Tag: 'hostile', Data: b64('a'.repeat(40) + '!') }] });
    for (let done = 0; done < BIG_ROWS; done += 20_000) {
      const now = Date.now();
      const batch = Array.from({ length: 20_000 }, (_, i) => ({ TS: new Date(now - i).toISOString(), Tag: 'hostbig', Data: b64(`row ${done + i} ${'z'.repeat(100)}`) }));
      const r = await svc.request('PUT', '/api/ingest/json', { headers: attacker, json: batch, timeoutMs: 120_000 });
      expect(r.status).toBe(200);
    }
    prepared = { ...(await prepareAvailabilityAttacks(svc, attacker, ATTACKS)), ...(await preparePrivilegeAttacks(svc, admin, attacker, ATTACKS)) };
  }, 600_000);
  afterAll(async () => {
    if (svc && !svc.alive) process.stderr.write(`service output:\n${svc.output}\n`);
    await svc?.kill('SIGTERM'); // a clean exit (a profile from SERVICE_NODE_ARGS gets written)
    await svc?.dispose();
  });

  /** Victims loop their three operations for `seconds`; answers their latencies and any error. */
  const victimLoad = async (seconds: number): Promise<Sample> => {
    const lat = new Map<VictimOp, number[]>([
      ['whoami', []],
      ['ingest', []],
      ['search', []],
    ]);
    const errors: string[] = [];
    const until = Date.now() + seconds * 1000;
    const record = (op: VictimOp, r: HttpResult) => {
      lat.get(op)!.push(r.ms);
      if (r.status !== 200) errors.push(`${op}: ${r.status} ${r.text.slice(0, 120)}`);
    };
    await Promise.all(
      victims.map(async (h, v) => {
        for (let n = 0; Date.now() < until; n++) {
          record('whoami', await svc.request('GET', '/api/info/whoami', { headers: h }));
          const batch = Array.from({ length: 100 }, (_, i) => ({ TS: new Date().toISOString(), Tag: `victim${v}`, Data: b64(`v${v} n${n} i${i} status=200`) }));
          record('ingest', await svc.request('PUT', '/api/ingest/json', { headers: h, json: batch }));
          record('search', await svc.request('POST', '/api/search/direct', { headers: h, json: { SearchString: `tag=victim${v} count`, Format: 'json', ...RANGE() } }));
        }
      }),
    );
    return { lat, errors };
  };

  /** The attacker, a client process of its own, until `stop()`; answers what each attack got back. */
  const attack = () => {
    const child = spawn(
      process.execPath,
      [path.join(__dirname, 'attacker.js'), JSON.stringify({ port: svc.port, authorization: attacker.Authorization, attacks: [...ATTACKS], sockets: SOCKETS, ...prepared })],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    // HOSTILE_ATTACKER_NICE=19: the attacker's own client work yields to the rest, as if it ran on another machine.
    if (ATTACKER_NICE) os.setPriority(child.pid!, ATTACKER_NICE);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      async stop(): Promise<Map<string, number[]>> {
        child.stdin!.end();
        await exited;
        return new Map(Object.entries(JSON.parse(out || '{}') as Record<string, number[]>));
      },
    };
  };

  it(`keeps other users' p99 under ${FACTOR}x quiet while one user attacks (${ROUNDS} x ${HOSTILE_S} s)`, async () => {
    const pid = svc.child!.pid!;
    const quiet: Sample = { lat: new Map(), errors: [] };
    const loud: Sample = { lat: new Map(), errors: [] };
    const answers = new Map<string, number[]>();
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(rssMb(pid)), 1000);
    const cpu = { quiet: { main: 0, threads: 0, machine: 0, seconds: 0 }, hostile: { main: 0, threads: 0, machine: 0, seconds: 0 } };
    for (let round = 0; round < ROUNDS; round++) {
      let before = cpuNow(pid);
      addTo(quiet, await victimLoad(QUIET_S));
      addCpu(cpu.quiet, before, pid, QUIET_S);
      const hostile = attack();
      await sleep(1000);
      before = cpuNow(pid);
      addTo(loud, await victimLoad(HOSTILE_S));
      addCpu(cpu.hostile, before, pid, HOSTILE_S);
      for (const [what, statuses] of await hostile.stop()) answers.set(what, [...(answers.get(what) ?? []), ...statuses]);
      await sleep(1000); // the attacker's last searches end (timeout) before the next quiet window
    }
    clearInterval(sampler);

    const rows = (['whoami', 'ingest', 'search'] as VictimOp[]).map((op) => {
      const q = pct(quiet.lat.get(op)!, 99);
      const h = pct(loud.lat.get(op)!, 99);
      return {
        op,
        quietP50: pct(quiet.lat.get(op)!, 50),
        quietP99: q,
        hostileP50: pct(loud.lat.get(op)!, 50),
        hostileP99: h,
        ratio: +(h / Math.max(1, q)).toFixed(2),
        n: [quiet.lat.get(op)!.length, loud.lat.get(op)!.length],
      };
    });
    const report = {
      victims: rows,
      attacker: Object.fromEntries([...answers].map(([k, v]) => [k, { requests: v.length, statuses: [...new Set(v)].sort() }])),
      rssMb: { max: Math.max(...rss), last: rss[rss.length - 1] },
      coresBusy: { quiet: perSecond(cpu.quiet), hostile: perSecond(cpu.hostile) },
    };
    process.stdout.write(`\nhostile soak:\n${JSON.stringify(report, null, 1)}\n`);

    expect(svc.alive).toBe(true);
    expect([...quiet.errors, ...loud.errors]).toEqual([]);
    const slow = rows.filter((r) => r.hostileP99 > Math.max(FACTOR * r.quietP99, r.quietP99 + SLACK_MS));
    expect(slow).toEqual([]);
    expect(Math.max(...rss)).toBeLessThan(RSS_MB);
    // The attacks were refused or ended, never answered with a server error.
    // A stream cut off at the timeout (-1) is the designed answer for every row; 5xx never is.
    for (const [what, statuses] of answers) expect({ what, bad: statuses.filter((s) => s >= 500 || (s === -1 && what !== 'every row')) }).toEqual({ what, bad: [] });
    // Privilege attacks (issue 32 items 1-3) are refused, every time: 403, or 429 when the
    // refusal brake held the attacker for its other attacks' refusals before reading the request.
    for (const [what, statuses] of answers) {
      if (what.startsWith('privilege'))
        expect({ what, refused: statuses.includes(403), other: statuses.filter((s) => s !== 403 && s !== 429) }).toEqual({ what, refused: true, other: [] });
    }
  }, 900_000);
});
