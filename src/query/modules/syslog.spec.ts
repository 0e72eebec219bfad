import { expectDistributedEqual, kept, linesToEntries, parseError, strings, values } from './extraction.spec-helper';
import { parseSyslog } from './syslog-parse';

const BOM = '\uFEFF';
// RFC 5424 section 6.5 examples, the product page's example, RFC 3164 lines, and a non-syslog line.
const LINES = [
  `<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - ${BOM}'su root' failed for lonvick on /dev/pts/8`,
  "<165>1 2003-08-24T05:14:15.000003-07:00 192.0.2.1 myproc 8710 - - %% It's time to make the do-nuts.",
  `<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"] ${BOM}An application event log entry...`,
  '<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3" eventSource="Application" eventID="1011"][examplePriority@32473 class="high" iut="9"]',
  '<165>4 2018-10-11T22:14:15.003Z mymach.it e - 1 [ex@32473 iut="3" foo="bar"] An application event log entry...',
  "<34>Oct 11 22:14:15 mymachine su: 'su root' failed for lonvick on /dev/pts/8",
  '<13>Feb  5 17:32:18 10.0.0.99 Use the BFG!',
  'Oct 11 22:14:15 web1 sshd[4242]: Accepted publickey for bob',
  'not syslog at all',
];
const DATA = linesToEntries(LINES);
const ALL = ['Priority', 'Facility', 'Severity', 'Version', 'Timestamp', 'Hostname', 'Appname', 'ProcID', 'MsgID', 'Message'];

describe('parseSyslog', () => {
  it('reads every RFC 5424 field of the RFC examples', () => {
    expect(values(`syslog ${ALL.join(' ')}`, DATA, ALL).slice(0, 5)).toEqual([
      [34, 4, 2, 1, '2003-10-11T22:14:15.003Z', 'mymachine.example.com', 'su', undefined, 'ID47', "'su root' failed for lonvick on /dev/pts/8"],
      [165, 20, 5, 1, '2003-08-24T05:14:15.000003-07:00', '192.0.2.1', 'myproc', '8710', undefined, "%% It's time to make the do-nuts."],
      [165, 20, 5, 1, '2003-10-11T22:14:15.003Z', 'mymachine.example.com', 'evntslog', undefined, 'ID47', 'An application event log entry...'],
      [165, 20, 5, 1, '2003-10-11T22:14:15.003Z', 'mymachine.example.com', 'evntslog', undefined, 'ID47', undefined],
      [165, 20, 5, 4, '2018-10-11T22:14:15.003Z', 'mymach.it', 'e', undefined, '1', 'An application event log entry...'],
    ]);
  });

  it('reads RFC 3164 lines, with or without a priority, and keeps what it can of other text', () => {
    expect(values(`syslog ${ALL.join(' ')}`, DATA, ALL).slice(5)).toEqual([
      [34, 4, 2, undefined, 'Oct 11 22:14:15', 'mymachine', 'su', undefined, undefined, "'su root' failed for lonvick on /dev/pts/8"],
      [13, 1, 5, undefined, 'Feb  5 17:32:18', '10.0.0.99', undefined, undefined, undefined, 'Use the BFG!'],
      [undefined, undefined, undefined, undefined, 'Oct 11 22:14:15', 'web1', 'sshd', '4242', undefined, 'Accepted publickey for bob'],
      [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'not syslog at all'],
    ]);
  });

  it('reads structured data with escapes, and stops cleanly on a broken section', () => {
    const r = parseSyslog('<14>1 - host app - - [a@1 k="x\\"y\\]z\\\\" n=""][b@2] msg');
    expect(r.structured.map(([id, p]) => [id, [...p]])).toEqual([
      [
        'a@1',
        [
          ['k', 'x"y]z\\'],
          ['n', ''],
        ],
      ],
      ['b@2', []],
    ]);
    expect(r.Message).toBe('msg');
    expect(r.Timestamp).toBeUndefined();
    const broken = parseSyslog('<14>1 2024-01-01T00:00:00Z h a p m [x@1 k="unterminated');
    expect([broken.Hostname, broken.structured.length, broken.Message]).toEqual(['h', 0, undefined]);
  });

  it('is linear on hostile input', () => {
    const t = Date.now();
    parseSyslog(`<1>1 - - - - - [${'a k="\\"'.repeat(200_000)}`);
    parseSyslog(`<1>1 - - - - - ${'[x'.repeat(300_000)}`);
    expect(Date.now() - t).toBeLessThan(2000);
  });
});

describe('syslog module', () => {
  it('extracts structured values by key, by section, and the first section id', () => {
    expect(
      strings('syslog StructuredID Structured.eventID Structured[examplePriority@32473].iut as prio Structured.class', DATA, ['StructuredID', 'eventID', 'prio', 'class']).slice(
        2,
        5,
      ),
    ).toEqual([
      ['exampleSDID@32473', '1011', undefined, undefined],
      ['exampleSDID@32473', '1011', '9', 'high'],
      ['ex@32473', undefined, undefined, undefined],
    ]);
    expect(strings('syslog Structured.foo', DATA, ['foo'])[4]).toEqual(['bar']);
  });

  it.each([
    ['syslog Severity<3', [0, 5]],
    ['syslog Severity>=5', [1, 2, 3, 4, 6]],
    ['syslog Facility==20 Version!=1', [4]],
    ['syslog Priority>100 MsgID=="ID47"', [2, 3]],
    ['syslog Hostname!="mymachine.example.com"', [1, 4, 5, 6, 7, 8]],
    ['syslog Appname=="sshd" ProcID=="4242"', [7]],
    ['syslog Message=="Use the BFG!"', [6]],
    ['syslog StructuredID=="examplePriority@32473"', [3]], // one of the sections matches
    ['syslog StructuredID!="examplePriority@32473"', [0, 1, 2, 4, 5, 6, 7, 8]], // any section matching drops
    ['syslog StructuredID!="exampleSDID@32473"', [0, 1, 4, 5, 6, 7, 8]],
  ])('filters: %s', (q, lines) => {
    expect(kept(q, DATA)).toEqual(lines);
  });

  it('reads an enumerated value with -e', () => {
    const d = linesToEntries([`{"raw":"<34>1 2024-01-01T00:00:00Z h1 app1 - - - hello"}`]);
    expect(strings('json raw | syslog -e raw Hostname Appname Message', d, ['Hostname', 'Appname', 'Message'])).toEqual([['h1', 'app1', 'hello']]);
  });

  it.each([
    ['syslog', 'ModuleError: syslog: missing field argument'],
    [
      'syslog Host',
      'ModuleError: syslog: unknown field "Host" (fields: Facility, Severity, Priority, Version, Timestamp, Hostname, Appname, ProcID, MsgID, Message, StructuredID, Structured.key, Structured[id].key)',
    ],
    ['syslog Hostname~web', 'ModuleError: syslog: operator ~ is not supported on Hostname (supported: == !=)'],
    ['syslog Appname<"b"', 'ModuleError: syslog: operator < is not supported on Appname (supported: == !=)'],
    ['syslog Severity~3', 'ModuleError: syslog: operator ~ is not supported on Severity (supported: == != < > <= >=)'],
    ['syslog -s Hostname', 'ModuleError: syslog: unknown flag -s'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('syslog Appname Severity | count by Appname,Severity | table Appname Severity count', DATA);
    expectDistributedEqual('syslog Hostname Appname | table Hostname Appname', DATA);
  });
});
