import { ALL, RANGE, T0, MIN, SEC } from './fixtures.spec-helper';
import { runQueryInMemory } from './memory';
import { RenderResult } from './renderers/renderer';
import { Entry } from './types';
import { evToString } from './values';

function entries(q: string, indexers = 1): Entry[] {
  const r: RenderResult = runQueryInMemory(q, ALL, { ...RANGE, indexers }).result;
  if (r.kind !== 'entries') throw new Error(`not an entries result: ${r.kind}`);
  return r.Entries;
}
const ev = (q: string, name: string) => entries(q).map((e) => (e.evs.has(name) ? evToString(e.evs.get(name)!) : undefined));
const minutes = (q: string) => entries(q).map((e) => (e.ts - T0) / MIN);
const rows = (q: string, names: string[]) => entries(q).map((e) => names.map((n) => (e.evs.has(n) ? evToString(e.evs.get(n)!) : undefined)));

describe('extraction: json', () => {
  it('extracts dotted paths, keeps entries lacking the field', () => {
    expect(rows('tag=app json user meta.host', ['user', 'host'])).toEqual([
      [undefined, undefined],
      ['alice', undefined],
      ['bob', 'h1'],
      ['carol', 'h2'],
      ['alice', 'h1'],
      ['bob', 'h2'],
      ['alice', 'h1'],
    ]);
  });

  it('extracts array elements and renames with as', () => {
    expect(ev('tag=app json tags.[1] as second', 'second')).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, 'b']);
    expect(ev('tag=app json tags[0]', 'tags')[6]).toBe('a');
    expect(ev('tag=app json meta', 'meta')[6]).toBe('{"host":"h1"}');
  });

  it('keeps numbers as numbers', () => {
    expect(entries('tag=app json bytes')[1].evs.get('bytes')).toBe(600);
  });

  it.each([
    ['json status==200', [5, 4, 3, 0]],
    ['json status>=404', [2, 1]],
    ['json status!=200', [6, 2, 1]], // != and !~ keep entries lacking the field (json page); -s drops them
    ['json status<300', [5, 4, 3, 0]],
    ['json status>200 status<=404', [1]],
    ['json user=="alice" bytes>200', [5, 2]],
    ['json user~ar', [3]],
    ['json user!~a', [6, 4, 1]],
    ['json meta.host=="h1" as host', [4, 2, 0]],
    ['json user=="bob" as u', [4, 1]],
  ])('filters: %s', (q, mins) => {
    expect(minutes(`tag=app ${q}`)).toEqual(mins);
  });

  it('compares as strings when a side is not numeric', () => {
    expect(minutes('tag=app json user>b')).toEqual([4, 3, 1]);
  });

  it('reads an EV with -e', () => {
    expect(rows('tag=app json meta | json -e meta host', ['host'])).toEqual([[undefined], [undefined], ['h1'], ['h2'], ['h1'], ['h2'], ['h1']]);
  });
});

describe('extraction: kv', () => {
  it('extracts keys, quoted values, and filters', () => {
    expect(rows('tag=syslog kv level=="critical" user msg', ['level', 'user', 'msg'])).toEqual([
      ['critical', 'alice', 'cpu hot'],
      ['critical', 'bob', 'disk full'],
    ]);
    expect(ev('tag=syslog kv msg', 'msg')).toEqual(['cpu hot', undefined, 'disk full', 'login ok']);
  });

  it('supports custom delimiter and separator', () => {
    expect(rows('tag=csv kv -d "," -sep "." /index', ['/index'])).toEqual([[undefined], ['html']]);
  });

  it('reads -e', () => {
    expect(ev('tag=syslog regex "msg=\\"(?P<m>[^\\"]+)" | kv -sep " " -d "," -e m cpu', 'cpu')).toEqual(['hot', undefined, undefined]);
  });
});

describe('extraction: regex', () => {
  it('maps named groups to EVs and drops non-matching entries', () => {
    expect(rows('tag=syslog regex "user=(?P<user>\\w+) msg=\\"(?P<msg>[^\\"]+)\\""', ['user', 'msg'])).toEqual([
      ['alice', 'cpu hot'],
      ['bob', 'disk full'],
      ['alice', 'login ok'],
    ]);
  });

  it('keeps non-matching entries with -p', () => {
    expect(ev('tag=syslog regex -p `msg="(?P<msg>[^"]+)"`', 'msg')).toEqual(['cpu hot', undefined, 'disk full', 'login ok']);
  });

  it('filters on groups', () => {
    expect(ev('tag=syslog regex "level=(?P<lvl>\\w+) user=(?P<user>\\w+)" lvl!="critical" user', 'user')).toEqual(['carol', 'alice']);
  });
});

describe('extraction: fields', () => {
  it('splits on "," by default with 0-based indexes', () => {
    expect(rows('tag=csv fields [0] as user 1 as method [3]', ['user', 'method', '3'])).toEqual([
      ['bob', 'POST', '403'],
      ['alice', 'GET', '200'],
    ]);
  });

  it('supports -d and filters', () => {
    expect(ev('tag=syslog fields -d " " [1]~alice as who', 'who')).toEqual(['user=alice', 'user=alice']);
    expect(ev('tag=csv fields [3]>=400 as code', 'code')).toEqual(['403']);
  });
});

describe('filtering: grep and words', () => {
  it.each([
    ['grep alice', [5, 2, 0]],
    ['grep -v alice', [6, 4, 3, 1]],
    ['grep carol malformed', [6, 3]],
    ['grep -v carol malformed', [5, 4, 2, 1, 0]],
    ['grep "\\"status\\":2*,"', [5, 4, 3, 0]],
    ['grep -e SRC 10.0.0.3', [6, 3]],
    ['words alice', [5, 2, 0]],
    ['words ali', []],
    ['words ali*', [5, 2, 0]],
    ['words alice h1', [2, 0]],
    ['words -or carol malformed', [6, 3]],
    ['json user | words -e user bob', [4, 1]],
    ['json user | grep -e user -v a', [4, 1]],
  ])('%s', (q, mins) => {
    expect(minutes(`tag=app ${q}`)).toEqual(mins);
  });

  it('drops entries missing the -e EV', () => {
    expect(minutes('tag=app json meta.host as h | grep -v -e h zzz')).toEqual([4, 3, 2, 1, 0]);
  });
});

describe('universal EVs', () => {
  it('reads SRC TAG TIMESTAMP DATA', () => {
    expect(rows('tag=csv count by TAG SRC', ['TAG', 'SRC', 'count'])).toEqual([['csv', '10.0.2.1', '2']]);
    expect(ev('tag=csv unique TIMESTAMP', 'x')).toHaveLength(2);
    expect(minutes('tag=app json user | grep -e DATA "\\"bytes\\":6"')).toEqual([5]);
  });
});

describe('processing: math and stats', () => {
  it('count', () => {
    expect(ev('tag=app count', 'count')).toEqual(['7']);
    expect(ev('tag=* count', 'count')).toEqual(['13']);
    expect(ev('tag=app json user | count user', 'count')).toEqual(['6']);
    expect(rows('tag=app json user | count by user', ['user', 'count'])).toEqual([
      ['alice', '3'],
      ['bob', '2'],
      ['carol', '1'],
    ]);
    expect(rows('tag=* count by TAG', ['TAG', 'count'])).toEqual([
      ['app', '7'],
      ['csv', '2'],
      ['syslog', '4'],
    ]);
    expect(rows('tag=app count by SRC', ['SRC', 'count'])).toEqual([
      ['10.0.0.1', '3'],
      ['10.0.0.2', '2'],
      ['10.0.0.3', '2'],
    ]);
  });

  it('counts nothing as 0 without by or over (other operators of nothing are empty); grouped counts of nothing have no rows', () => {
    for (const indexers of [1, 2]) {
      const r = entries('tag=nothing count', indexers);
      expect(r.map((e) => [e.ts, [...e.evs]])).toEqual([[RANGE.end.getTime() * 1000, [['count', 0]]]]);
      expect(rows('tag=app grep nosuchtext | stats count sum(x) mean(x) unique_count(x)', ['count', 'sum', 'mean', 'unique_count'])).toEqual([['0', '0', '', '0']]);
    }
    expect(ev('tag=app limit 3 | grep nosuchtext | count', 'count')).toEqual(['0']);
    expect(ev('tag=app grep nosuchtext | mean x', 'mean')).toEqual(['']);
    expect(entries('tag=nothing count by SRC')).toEqual([]);
    expect(entries('tag=nothing count over 1m')).toEqual([]);
  });

  it('sum mean min max stddev variance', () => {
    expect(rows('tag=app json user bytes | sum bytes by user', ['user', 'sum'])).toEqual([
      ['alice', '1000'],
      ['bob', '700'],
      ['carol', '400'],
    ]);
    expect(ev('tag=app json bytes | mean bytes', 'mean')).toEqual(['350']);
    expect(ev('tag=app json bytes | min bytes', 'min')).toEqual(['100']);
    expect(ev('tag=app json bytes | max bytes', 'max')).toEqual(['600']);
    expect(Number(ev('tag=app json bytes | variance bytes', 'variance')[0])).toBeCloseTo(175000 / 6, 6);
    expect(Number(ev('tag=app json bytes | stddev bytes', 'stddev')[0])).toBeCloseTo(Math.sqrt(175000 / 6), 6);
  });

  it('stats with several operators, aliases and by', () => {
    const q = 'tag=app json user bytes meta.host | stats count sum(bytes) total(bytes) as t mean(bytes) as avg min(bytes) max(bytes) unique_count(user) as users by host';
    expect(rows(q, ['host', 'count', 'sum', 't', 'avg', 'min', 'max', 'users'])).toEqual([
      ['h1', '3', '900', '900', '300', '100', '500', '2'],
      ['h2', '2', '600', '600', '300', '200', '400', '2'],
    ]);
  });

  it('stats over time buckets', () => {
    const r = entries('tag=app json bytes | stats sum(bytes) count over 2m');
    expect(r.map((e) => [(e.ts - T0) / MIN, e.evs.get('sum'), e.evs.get('count')])).toEqual([
      [0, 300, 2],
      [2, 700, 2],
      [4, 1100, 2],
      [6, 0, 1],
    ]);
    expect(entries('tag=app json bytes | sum bytes over 2m').map((e) => e.evs.get('sum'))).toEqual([300, 700, 1100]);
  });

  it('ignores non-numeric values and entries without the by EVs', () => {
    expect(ev('tag=app json user | sum user', 'sum')).toEqual(['0']);
    expect(ev('tag=app json user | mean user', 'mean')).toEqual(['']);
    expect(rows('tag=app json bytes meta.host | mean bytes by host', ['host', 'mean'])).toEqual([
      ['h1', '300'],
      ['h2', '300'],
    ]);
  });
});

describe('processing: sort, limit, unique', () => {
  it('sort defaults to time desc and sorts by EVs, src, tag', () => {
    expect(minutes('tag=app sort')).toEqual([6, 5, 4, 3, 2, 1, 0]);
    expect(minutes('tag=app sort by time asc')).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(ev('tag=app json bytes | sort by bytes asc', 'bytes')).toEqual(['100', '200', '300', '400', '500', '600', undefined]);
    expect(ev('tag=app json bytes | sort by bytes', 'bytes')).toEqual(['600', '500', '400', '300', '200', '100', undefined]);
    expect(entries('tag=app sort by src asc').map((e) => e.src)).toEqual(['10.0.0.1', '10.0.0.1', '10.0.0.1', '10.0.0.2', '10.0.0.2', '10.0.0.3', '10.0.0.3']);
    expect(entries('tag=* sort by tag asc | limit 3').map((e) => e.tag)).toEqual([1, 1, 1]);
    expect(rows('tag=app json user | count by user | sort by count asc', ['user'])).toEqual([['carol'], ['bob'], ['alice']]);
  });

  it('limit keeps the newest entries, or a range', () => {
    expect(minutes('tag=app limit 3')).toEqual([6, 5, 4]);
    expect(minutes('tag=app limit 1 3')).toEqual([5, 4]);
    expect(minutes('tag=app limit 100')).toHaveLength(7);
    expect(minutes('tag=app json bytes | sort by bytes asc | limit 2')).toEqual([0, 1]);
    expect(rows('tag=app json user | count by user | sort by count desc | limit 1', ['user'])).toEqual([['alice']]);
  });

  it('unique keeps the newest entry per key', () => {
    expect(rows('tag=app json user | unique user', ['user'])).toEqual([['alice'], ['bob'], ['carol']]);
    expect(minutes('tag=app json user | unique user')).toEqual([5, 4, 3]);
    expect(minutes('tag=app json user meta.host | unique user host')).toEqual([4, 3, 2, 1]);
    expect(minutes('tag=app unique')).toHaveLength(7);
    expect(minutes('tag=app json user | sort by time asc | unique user')).toEqual([0, 1, 3]);
  });
});

describe('time constraints', () => {
  it('filters by start= and end=', () => {
    expect(ev('tag=app start="2024-01-01T00:02:00Z" end="2024-01-01T00:04:00Z" count', 'count')).toEqual(['2']);
    // now = T0+6m30s, start = T0+3m30s
    expect(minutes('tag=app start=-3m')).toEqual([6, 5, 4]);
    expect(minutes('tag=syslog end=NOW-3m')).toEqual([2.5, 1.5, 0.5]);
    expect((entries('tag=syslog start=-4m limit 1')[0].ts - T0) / SEC).toBe(210);
  });

  it('matches tag wildcards', () => {
    expect(ev('tag=sys*,csv count', 'count')).toEqual(['6']);
    expect(ev('tag=nothing count', 'count')).toEqual(['0']);
  });
});
