import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Headers, ServiceProcess, sleep } from './service';

/**
 * The query language end to end on data shipped by a real log shipper (issue 16's "done when"):
 * syslog-ng (Debian's syslog-ng-core and syslog-ng-mod-http; `.ci/run` installs them) follows a
 * web server's JSON access log and posts it to HEC `/services/collector/raw?tag=web`; a hosts
 * table is a CSV resource; then eval, lookup, count by and chart, and a compound query.
 */
const SYSLOG_NG = '/usr/sbin/syslog-ng';
const HOSTS = ['web1', 'web2', 'web3', 'db1'];
const OWNERS: Record<string, string> = { web1: 'alice', web2: 'alice', web3: 'bob', db1: 'carol' };
const LINES = 400;
/** Line i: status 500 + i % 4 on every 5th line (hosts by i % 4), else 200. */
const line = (i: number, ts: string) => JSON.stringify({ ts, host: HOSTS[i % HOSTS.length], status: i % 5 === 0 ? 500 + (i % 4) : 200, path: `/page/${i}` });

function syslogNgConfig(dir: string, port: number, token: string): string {
  return `@version: 3.35
options { keep-hostname(yes); stats-freq(0); };
source s_access { file("${dir}/access.log" flags(no-parse) follow-freq(1)); };
destination d_service {
  http(
    url("http://127.0.0.1:${port}/services/collector/raw?tag=web")
    method("POST")
    headers("Authorization: Splunk ${token}")
    body("\${MESSAGE}")
    batch-lines(50) batch-timeout(200)
  );
};
log { source(s_access); destination(d_service); };
`;
}

(fs.existsSync(SYSLOG_NG) ? describe : describe.skip)('a real log shipper feeds the query language (fault suite, syslog-ng)', () => {
  let svc: ServiceProcess;
  let admin: Headers;
  let shipper: ChildProcess | undefined;
  let dir: string;
  let shipperOutput = '';
  const RANGE = { SearchStart: new Date(Date.now() - 3600_000).toISOString(), SearchEnd: new Date(Date.now() + 3600_000).toISOString() };
  const direct = (query: string, format = 'json') => svc.request('POST', '/api/search/direct', { headers: admin, json: { SearchString: query, Format: format, ...RANGE } });

  beforeAll(async () => {
    svc = new ServiceProcess('');
    await svc.start();
    admin = await svc.asAdmin();
    const token = await svc.request('POST', '/api/tokens', { headers: admin, json: { name: 'syslog-ng', capabilities: ['Ingest'] } });
    expect(token.status).toBe(200);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipper-'));
    fs.writeFileSync(path.join(dir, 'access.log'), '');
    fs.writeFileSync(path.join(dir, 'syslog-ng.conf'), syslogNgConfig(dir, svc.port, (token.body as { token: string }).token));
    shipper = spawn(SYSLOG_NG, ['-F', '--no-caps', '-f', `${dir}/syslog-ng.conf`, '-R', `${dir}/persist`, '-p', `${dir}/pid`, '-c', `${dir}/ctl`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const s of [shipper.stdout!, shipper.stderr!]) s.on('data', (d: Buffer) => (shipperOutput += d.toString()));
    // The web server writes its log while the shipper follows it.
    const now = Date.now();
    for (let i = 0; i < LINES; i += 100) {
      const chunk = Array.from({ length: 100 }, (_, k) => line(i + k, new Date(now - (LINES - i - k) * 1000).toISOString()) + '\n').join('');
      fs.appendFileSync(path.join(dir, 'access.log'), chunk);
      await sleep(300);
    }
    for (let i = 0; i < 120; i++) {
      const r = await direct('tag=web count | table count');
      if (r.status === 200 && (r.body as { Rows: Array<{ Row: string[] }> }).Rows[0]?.Row[0] === String(LINES)) break;
      await sleep(500);
    }
    const resource = await svc.request('POST', '/api/resources', { headers: admin, json: { ResourceName: 'hosts', Description: 'who runs each host' } });
    const guid = (resource.body as { GUID: string }).GUID;
    const form = new FormData();
    form.append(
      'file',
      new Blob([
        `host,owner\n${Object.entries(OWNERS)
          .map(([h, o]) => `${h},${o}`)
          .join('\n')}\n`,
      ]),
      'hosts.csv',
    );
    expect((await svc.request('PUT', `/api/resources/${guid}/raw`, { headers: admin, body: form })).status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    if (shipperOutput) process.stderr.write(`syslog-ng said:\n${shipperOutput}\n`);
    shipper?.kill('SIGTERM');
    await svc?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What the issue's query must answer, computed from the lines themselves. */
  const expectedErrorsByOwner = () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < LINES; i++) if (i % 5 === 0) counts.set(OWNERS[HOSTS[i % 4]], (counts.get(OWNERS[HOSTS[i % 4]]) ?? 0) + 1);
    return counts;
  };

  it('every shipped line arrived once', async () => {
    const r = await direct('tag=web json path | unique path | count | table count');
    expect(r.body).toEqual(expect.objectContaining({ Rows: [expect.objectContaining({ Row: [String(LINES)] })] }));
  });

  it('tag=web json status host | eval status >= 500 | lookup -r hosts host host owner | count by owner | chart', async () => {
    const r = await direct('tag=web json status host | eval status >= 500 | lookup -r hosts host host owner | count by owner | chart');
    expect(r.status).toBe(200);
    const chart = r.body as { Names: string[]; Values: Array<{ Data: number[] }> };
    const totals = new Map(chart.Names.map((name, k) => [name, chart.Values.reduce((a, v) => a + (v.Data[k] ?? 0), 0)]));
    expect(totals).toEqual(expectedErrorsByOwner());
  });

  it('a compound query: the inner table of failing hosts enriches the main query', async () => {
    const q =
      '@bad{tag=web json host status | eval status >= 500 | count by host | table host count}; tag=web json host status | lookup -s -r @bad host host count as errors | lookup -r hosts host host owner | unique host | table host owner errors';
    const r = await direct(q, 'csv');
    expect(r.status).toBe(200);
    const rows = r.text.trim().split('\r\n').slice(1).sort();
    expect(rows).toEqual(HOSTS.map((h) => `${h},${OWNERS[h]},${LINES / 20}`).sort());
  });
});

/** Fails loudly when CI lost the shipper (the suite above would be skipped). */
it('syslog-ng with its http() destination is installed where CI runs', () => {
  if (!process.env.CI) return;
  expect(spawnSync(SYSLOG_NG, ['--version']).status).toBe(0);
  expect(fs.readdirSync('/usr/lib/syslog-ng').some((v) => fs.existsSync(`/usr/lib/syslog-ng/${v}/libhttp.so`))).toBe(true);
});
