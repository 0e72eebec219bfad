import request from 'supertest';
import { asAdmin, Headers } from '../setup/auth';
import { createTestApp, TestApp } from '../setup/app';
import { errorBody, queryErrors } from '../setup/errors';

const RANGE = { SearchStart: '2000-01-01T00:00:00Z', SearchEnd: '2100-01-01T00:00:00Z' };

/** What a log shipper sends: RFC 5424 lines, RFC 3164 (BSD) lines, one line that is not syslog. */
const LINES = [
  '<34>1 2024-05-01T10:00:00Z web1 sshd 4242 - [origin@32473 ip="10.0.0.5"] Accepted password for ann',
  '<38>1 2024-05-01T10:00:01Z web2 sshd 4243 AUTH - Failed password for bob',
  '<30>1 2024-05-01T10:00:02Z web1 systemd 1 - - Started session 7',
  '<78>May  1 10:00:03 db1 cron[77]: (root) CMD (run-parts /etc/cron.hourly)',
  '<38>May  1 10:00:04 db1 sshd[78]: Accepted publickey for cid',
  'not a syslog line',
];

describe('extraction modules over ingested data (e2e)', () => {
  let t: TestApp;
  let admin: Headers;

  const direct = (query: string, format = 'json') =>
    request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: query, Format: format, ...RANGE });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    const r = await request(t.http)
      .post('/api/ingest/lines')
      .set(admin)
      .field('tag', 'shipped')
      .field('source', '192.168.7.9')
      .attach('file', Buffer.from(LINES.join('\n') + '\n'), 'syslog.log');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Count: 6, Size: LINES.join('').length, Tags: ['shipped'] });
  });
  afterAll(() => t.close());

  it('syslog Hostname Appname | count by Appname | table', async () => {
    // RFC 3164 lines carry no year: the ingest puts them in the current year (the last one if that is in the future)
    const now = new Date();
    const y = Date.UTC(now.getUTCFullYear(), 4, 1, 10, 0, 4) > Date.now() + 86_400_000 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
    const r = await direct('tag=shipped syslog Hostname Appname | count by Appname | table');
    expect(r.status).toBe(200);
    // the line that is not syslog has no Appname and counts in no group
    expect(r.body).toEqual({
      Columns: ['Appname', 'count'],
      Rows: [
        { TS: `${y}-05-01T10:00:03.000000Z`, Row: ['cron', '1'] },
        { TS: `${y}-05-01T10:00:04.000000Z`, Row: ['sshd', '3'] },
        { TS: '2024-05-01T10:00:02.000000Z', Row: ['systemd', '1'] },
      ],
    });
    const csv = await direct('tag=shipped syslog Hostname Appname | count by Hostname | table Hostname count', 'csv');
    expect(csv.text).toBe('Hostname,count\r\ndb1,2\r\nweb1,2\r\nweb2,1\r\n');
  });

  it('filters and structured data on the same data', async () => {
    const r = await direct('tag=shipped syslog Severity<=6 Appname=="sshd" ProcID Structured.ip StructuredID | table ProcID Severity ip StructuredID', 'csv');
    // <34> is facility 4 severity 2, <38> severity 6; cron's <78> is facility 9 severity 6 but not sshd
    expect(r.text).toBe('ProcID,Severity,ip,StructuredID\r\n78,6,,\r\n4243,6,,\r\n4242,2,10.0.0.5,origin@32473\r\n');
    const g = await direct('tag=shipped grep -i -v SSHD | src ~ 192.168.0.0/16 | length | table length', 'csv');
    expect(g.text).toBe(`length\r\n${LINES[5].length}\r\n${LINES[3].length}\r\n${LINES[2].length}\r\n`);
  });

  it('refuses what it leaves out with a 400 naming it', async () => {
    for (const [q, msg] of [
      [
        'tag=shipped grok "%{SYSLOGLINE}"',
        'grok: not supported (no well-kept grok pattern library with bounded matching exists for this service); use regex "(?P<name>...)" instead',
      ],
      ['tag=shipped json -x arr', 'json: flag -x (expanding an array into several entries) is not supported'],
      ['tag=shipped syslog Hostname~web', 'syslog: operator ~ is not supported on Hostname (supported: == !=)'],
    ]) {
      const r = await direct(q);
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: errorBody(queryErrors.module(msg), 'QUERY_INVALID') });
    }
  });

  it('lists every module in /api/info/searchmodules with its description and examples', async () => {
    const r = await request(t.http).get('/api/info/searchmodules').set(admin);
    expect(r.status).toBe(200);
    const byName = new Map((r.body as Array<{ Name: string; Info: string; Examples: string[] }>).map((m) => [m.Name, m]));
    for (const n of ['csv', 'syslog', 'cef', 'xml', 'subnet', 'alias', 'length', 'upper', 'lower', 'require', 'src', 'json', 'kv', 'regex', 'fields', 'grep', 'words']) {
      expect(byName.get(n)).toEqual({
        Name: n,
        Info: expect.stringMatching(/.{20}/),
        Examples: expect.arrayContaining([expect.stringContaining(n)]),
        FrontendOnly: false,
        Sorting: false,
        Collapsing: false,
      });
    }
    expect(byName.has('grok')).toBe(false);
  });

  it('lists the data-transform modules (issue 28) and runs them over ingested data, a pipe straight after the tag included', async () => {
    const r = await request(t.http).get('/api/info/searchmodules').set(admin);
    const byName = new Map((r.body as Array<{ Name: string; Collapsing: boolean }>).map((m) => [m.Name, m]));
    const transforms = ['printf', 'base64', 'hexlify', 'trim', 'trimleft', 'trimright', 'trimprefix', 'trimsuffix', 'trimspace', 'truncate', 'concat', 'abs'];
    for (const n of [...transforms, 'unescape', 'split', 'slice', 'strings', 'entropy', 'keep', 'path', 'time']) {
      expect(byName.get(n)).toEqual({
        Name: n,
        Info: expect.stringMatching(/.{20}/),
        Examples: expect.arrayContaining([expect.stringContaining(n)]),
        FrontendOnly: false,
        Sorting: false,
        Collapsing: n === 'entropy',
      });
    }
    const q = await direct(
      'tag=shipped | syslog Hostname Appname==sshd | printf -e who "%s@%s" Appname Hostname | base64 -t b who | base64 -d -t back b | truncate -ellipsis back 6 | table who b back',
      'csv',
    );
    expect(q.status).toBe(200);
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    expect(q.text).toBe(`who,b,back\r\nsshd@db1,${b64('sshd@db1')},sshd@d...\r\nsshd@web2,${b64('sshd@web2')},sshd@w...\r\nsshd@web1,${b64('sshd@web1')},sshd@w...\r\n`);
    const split = await direct('tag=shipped | grep "not a syslog" | split -d " " | table DATA', 'csv');
    expect(split.text).toBe('DATA\r\nnot\r\na\r\nsyslog\r\nline\r\n');
    const bad = await direct('tag=shipped | printf "%d %d" a');
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: errorBody(queryErrors.module('printf: the format string has 2 verbs but 1 enumerated value is given'), 'QUERY_INVALID'),
    });
  });
});
