import { EvalRuntimeError } from './limits';
import { compile, entryWith, run, rt, value } from './eval.spec-helper';

describe('eval: type promotion', () => {
  it.each([
    ['1 + 2.14', 3.14],
    ['5 + "10"', 15],
    ['5 + "2.5"', 7.5],
    ['"56" < 3.14', false],
    ['"56" > 3.14', true],
    ['7 / 2', 3],
    ['-7 / 2', -3],
    ['7.0 / 2', 3.5],
    ['-7 % 3', -1],
    ['7.5 % 2', 1.5],
    ['"a" + 5', 'a5'],
    ['"ab" + "cd"', 'abcd'],
    ['"10" < "9"', true], // two strings compare as text
    ['10 < "9"', false],
    ['0x10 + 0b11', 19],
    ['uint8(200) + uint8(100)', 44], // both uint8: wraps
    ['uint8(200) + 100', 300], // int (int64) has the greater rank
    ['int8(127) + int8(1)', -128],
    ['uint16(1) - uint16(2)', 65535],
    ['int32(-1) + uint32(0)', 4294967295], // same rank: unsigned wins
    ['int16(-1) + uint8(0)', -1], // int16 holds every uint8
    ['type(uint8(1) + uint8(1))', 'uint8'],
    ['type(uint8(1) + int16(1))', 'int16'],
    ['type(1 + 1.0)', 'float'],
    ['type(1 + "1")', 'int'],
    ['1 << 40', 2 ** 40],
    ['-8 >> 1', -4],
    ['uint8(1) << uint8(9)', 0],
    ['uint8(1) << 9', 512],
    ['ip("10.0.0.5") > "10.0.0.10"', false],
    ['ip("10.0.0.5") < "10.0.0.10"', true],
    ['"192.168.1.1" == ip("192.168.1.1")', true],
    ['ip("::ffff:1.2.3.4") == "1.2.3.4"', true],
    ['string(ip("2001:db8:0:0:0:0:0:1"))', '2001:db8::1'],
    ['time("2024-01-01T00:00:00Z") + duration("1h30m")', '2024-01-01T01:30:00.000000Z'],
    ['time("2024-01-01T01:00:00Z") - duration("90m")', '2023-12-31T23:30:00.000000Z'],
    ['time("2024-01-02T00:00:00Z") - time("2024-01-01T12:00:00Z")', '12h0m0s'],
    ['time("2024-01-02T00:00:00Z") > "2024-01-01T23:59:59Z"', true],
    ['duration("1m") > "30s"', true],
    ['duration("1m") * 3', '3m0s'],
    ['duration("1h") / duration("30m")', 2],
    ['int(duration("1.5s"))', 1500000000],
    ['TIMESTAMP == "2024-01-01T00:00:00Z"', true],
    ['TIMESTAMP + duration("1s")', '2024-01-01T00:00:01.000000Z'],
    ['type(SRC)', 'ip'],
    ['SRC == "10.0.0.1"', true],
    ['true == "true"', false],
  ])('%s = %p', (expr, want) => {
    expect(value(expr)).toEqual(want);
  });

  it.each([
    ['string(ip("0:0:0:0:0:0:0:1"))', '::1'],
    ['string(ip("1:0:0:2:0:0:0:3"))', '1:0:0:2::3'],
    ['string(ip("::"))', '::'],
    ['string(ip("FE80::1:2"))', 'fe80::1:2'],
    ['ip("300.1.1.1")', undefined],
    ['int(ip("10.0.0.1"))', 167772161],
    ['string(ip(167772161))', '10.0.0.1'],
    ['time("2024-01-01 03:04:05")', '2024-01-01T03:04:05.000000Z'],
    ['time("2024-01-01T00:00:00.5+01:00")', '2023-12-31T23:00:00.500000Z'],
    ['time("2024-01-01")', '2024-01-01T00:00:00.000000Z'],
    ['time(1704067200)', '2024-01-01T00:00:00.000000Z'],
    ['time("yesterday")', undefined],
    ['duration("1h2m3.5s")', '1h2m3.5s'],
    ['duration("1.5ms")', '1.5ms'],
    ['duration(500)', '500ns'],
    ['duration("-90s")', '-1m30s'],
    ['duration("2us")', '2µs'],
    ['duration("5 minutes")', undefined],
    ['float("1e3")', 1000],
    ['bool("t")', true],
    ['bool("yes")', undefined],
    ['bool(0)', false],
    ['string(2.5)', '2.5'],
    ['string(1000000.0)', '1e+06'],
    ['array("[ a b ]")', '[ a b ]'],
    ['len(array("[ a b ]"))', 2],
    ['len(array(5))', 1],
  ])('cast %s = %p', (expr, want) => {
    expect(value(expr)).toEqual(want);
  });

  it('EVs keep their types: numbers from json, text from kv', () => {
    expect(run('a = type(n); b = type(f); c = type(s); d = n + s; e = f * 2;', { n: 3, f: 1.5, s: '4' }).evs).toMatchObject({ a: 'int', b: 'float', c: 'string', d: 7, e: 3 });
  });
});

describe('eval: no value (missing EVs, failed casts, division by zero)', () => {
  it('arithmetic with no value, or by zero, gives no value: the assigned EV is not created', () => {
    expect(run('x = 10 / 0; y = 10 % 0; z = 1.5 / 0; w = missing + 1; v = int("abc");').evs).toEqual({});
    expect(run('x = 1; x = missing * 2;', {}).evs).toEqual({});
  });

  it('comparisons with no value are false (== and != alike), as inline filters are', () => {
    for (const p of ['missing == 1', 'missing != 1', 'missing < 1', 'missing ~ "a"', 'missing !~ "a"', '10 / 0 == 0']) {
      expect(run(p).keep).toBe(false);
    }
    expect(run('!has(missing)').keep).toBe(true);
    expect(run('!(missing == 1)').keep).toBe(true);
  });

  it('a filter on no value drops the entry; has() guards', () => {
    expect(run('status >= 500').keep).toBe(false);
    expect(run('if (has(status)) { s = status; } else { s = "none"; }').evs).toEqual({ s: 'none' });
    expect(value('type(missing)')).toBe('nil');
    expect(value('type(int("x"))')).toBe('nil');
    expect(value('len(missing)')).toBe(0);
  });

  it('failed promotions: comparisons are false, != is true, other arithmetic gives no value', () => {
    expect(run('x = "foo"; y = 5; lt = x < y; eq = x == y; ne = x != y; m = x * y;').evs).toEqual({ x: 'foo', y: 5, lt: false, eq: false, ne: true });
  });

  it('++ and += start a missing variable from zero', () => {
    expect(run('c++; d += 5; e -= 2; s += "a";').evs).toEqual({ c: 1, d: 5, e: -2, s: 'a' });
  });
});

describe('eval: statements', () => {
  it('if / else if / else', () => {
    const p = 'if (n > 10) { s = "big"; } else if (n > 5) { s = "mid"; } else s = "small";';
    expect([12, 7, 1].map((n) => run(p, { n }).evs.s)).toEqual(['big', 'mid', 'small']);
  });

  it('for with break and continue', () => {
    expect(run('sum = 0; for (i = 0; i < 10; i++) { if (i < 2) { continue; } if (i == 5) { break; } sum += i; }').evs).toEqual({ sum: 9, i: 5 });
    expect(run('n = 0; for (;;) { n++; if (n == 3) break; }').evs).toEqual({ n: 3 });
  });

  it('switch: first true case, fall through until break, default last', () => {
    const p = 'switch (int(foo)) { case 1: out = "one"; break; case 2: out = "two"; case 3: out = out + "+three"; break; default: out = "other"; }';
    expect(['1', '2', '3', '9', 'x'].map((foo) => run(p, { foo }).evs.out)).toEqual(['one', 'two+three', undefined, 'other', 'other']); // case 3: out + "..." with no out is no value
    expect(run('for (i = 0; i < 3; i++) { switch (i) { case 1: continue; } n++; }').evs).toEqual({ i: 3, n: 2 });
  });

  it('variables become EVs; delete() removes one; set_data() replaces DATA', () => {
    const r = run('a = 1; b = {1, "x"}; delete(old); set_data(printf("a=%d", a));', { old: 'gone', keep: 'kept' });
    expect(r.evs).toEqual({ a: 1, b: '[ 1 x ]', keep: 'kept' });
    expect(r.entry.data.toString()).toBe('a=1');
  });

  it('$( ) names EVs that are no identifiers', () => {
    expect(run('$(odd name!) == "v"', { 'odd name!': 'v' }).keep).toBe(true);
    expect(run('$(new one) = 5;').evs).toEqual({ 'new one': 5 });
  });
});

describe('eval: arrays and strings', () => {
  it('literals, nesting, indexing, ranges, assignment into them', () => {
    expect(run('foo = {"a","b","c","d"}; bar = foo[1]; r = foo[1:3]; foo[0] = "z"; n = {1, 2, {"x", "y"}}; m = n[2][1]; oob = foo[9];').evs).toEqual({
      foo: '[ z b c d ]',
      bar: 'b',
      r: '[ b c ]',
      n: '[ 1 2 [ x y ] ]',
      m: 'y',
    });
    expect(run('foo = "I am a potato"; foo[7] = "P"; s = foo[2:4];').evs).toEqual({ foo: 'I am a Potato', s: 'am' });
  });

  it('arrays are values: a copy does not change with the original', () => {
    expect(run('a = {1, 2}; b = a; a[0] = 9; append(a, 3); c = {a, a}; a[1] = 7;').evs).toEqual({ a: '[ 9 7 3 ]', b: '[ 1 2 ]', c: '[ [ 9 2 3 ] [ 9 2 3 ] ]' });
  });

  it('append grows in place; len() and in() see arrays', () => {
    expect(run('for (i = 0; i < 1000; i++) { append(x, i); } n = len(x); last = x[999]; has5 = in(5, x);').evs).toMatchObject({ n: 1000, last: 999, has5: true });
  });
});

describe('eval: persistent var and map', () => {
  const runAll = (program: string, rows: Array<Record<string, string | number>>) => {
    const p = compile(program);
    return rows.map((evs) => {
      const e = entryWith(evs);
      const keep = p.run(e, rt);
      return { keep, ...Object.fromEntries(e.evs) };
    });
  };

  it('var keeps its value across entries; its initialiser runs once; it is no EV itself', () => {
    expect(runAll('var count = 10; count++; output = count;', [{}, {}, {}])).toEqual([
      { keep: true, output: 11 },
      { keep: true, output: 12 },
      { keep: true, output: 13 },
    ]);
  });

  it('a persistent var can be a filter state: keep the first entry of each user', () => {
    expect(
      runAll('map seen; if (has_key(seen, user)) { return false; } seen[user] = 1; return true;', [{ user: 'a' }, { user: 'b' }, { user: 'a' }, { user: 'c' }]).map((r) => r.keep),
    ).toEqual([true, true, false, true]);
  });

  it('maps: last value per key, len(), keys(), missing keys are no value', () => {
    const rows = runAll('map last; prev = last[phase]; last[phase] = v; n = len(last); k = keys(last);', [
      { phase: 'L1', v: 1 },
      { phase: 'L2', v: 2 },
      { phase: 'L1', v: 3 },
    ]);
    expect(rows).toEqual([
      { keep: true, phase: 'L1', v: 1, n: 1, k: '[ L1 ]' },
      { keep: true, phase: 'L2', v: 2, n: 2, k: '[ L1 L2 ]' },
      { keep: true, phase: 'L1', v: 3, prev: 1, n: 2, k: '[ L1 L2 ]' },
    ]);
  });

  it('a map takes no new key past its limit (the product discards them)', () => {
    const p = compile('map m; m[k] = 1; n = len(m);', { maxMapKeys: 2 });
    const ns = ['a', 'b', 'c', 'a'].map((k) => {
      const e = entryWith({ k });
      p.run(e, rt);
      return e.evs.get('n');
    });
    expect(ns).toEqual([1, 2, 2, 2]);
  });

  it('persistent memory is bounded', () => {
    const p = compile('map m; m[k] = v;', { maxPersistentBytes: 10_000 });
    expect(() => {
      for (let i = 0; i < 100; i++) p.run(entryWith({ k: `key${i}`, v: 'x'.repeat(100) }), rt);
    }).toThrow(new EvalRuntimeError('persistent variables and maps hold more than 10000 bytes (the limit)'));
  });
});

describe('eval: a program cannot hang or exhaust a worker', () => {
  const budget = 'eval: the program ran more than 100000 steps on one entry (the per-entry step budget, EVAL_MAX_STEPS); does a loop never end?';

  it('an endless loop is stopped by the step budget with a clear error', () => {
    const started = Date.now();
    expect(() => run('for (;;) { x = 1; }')).toThrow(new EvalRuntimeError(budget.slice('eval: '.length)));
    expect(() => run('for (i = 0; i >= 0; i++) { }')).toThrow(budget);
    expect(() => run('for (i = 0; i < 10; i++) { i = 0; }')).toThrow(budget);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('the budget is per entry and configurable', () => {
    expect(run('for (i = 0; i < 100; i++) { }', {}, { maxSteps: 10_000 }).evs.i).toBe(100);
    expect(() => run('for (i = 0; i < 100; i++) { }', {}, { maxSteps: 200 })).toThrow('more than 200 steps');
    const p = compile('for (i = 0; i < 60; i++) { }', { maxSteps: 1000 }); // about 7 steps a turn
    for (let k = 0; k < 5; k++) expect(p.run(entryWith(), rt)).toBe(true);
  });

  it('strings and arrays cannot grow without bound', () => {
    expect(() => run('s = "x"; for (;;) { s = s + s; }')).toThrow('eval: a string is longer than 1048576 characters (the string limit)');
    expect(() => run('a = {1}; for (;;) { a = {a, a}; }')).toThrow('eval: an array has more than 100000 elements, nested ones included (the array limit)');
    expect(() => run('for (;;) { append(a, 1); }', {}, { maxArrayLength: 500 })).toThrow('eval: an array has more than 500 elements, nested ones included (the array limit)');
    expect(() => run('s = "xxxxxxxxxx"; out = printf("%s%s%s%s", s, s, s, s);', {}, { maxStringLength: 30 })).toThrow('the string limit');
  });

  it('arrays cannot nest without bound; deeply nested JSON does not exhaust the stack', () => {
    expect(() => run('a = {}; for (;;) { a = {a}; }')).toThrow('eval: arrays nested more than 32 levels deep');
    expect(() => run('a = {1}; for (;;) { a[0] = {a[0]}; }')).toThrow('eval: arrays nested more than 32 levels deep');
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const r = run('n = json_len(d); s = json_set(`{}`, "k", d); g = json_to_gravwell_array(d);', { d: deep }).evs;
    // 32 levels become arrays; JSON too deep to print again is no value
    expect([r.n, r.s, r.g]).toEqual([1, undefined, `${'[ '.repeat(32)}<nil>${' ]'.repeat(32)}`]);
  });

  it('bulk work costs steps: a loop over a large string stops early', () => {
    expect(() => run('s = strings_replace(printf("%10000s", ""), " ", "ab", -1); for (;;) { t = s ~ "zz"; }')).toThrow(budget);
  });
});
