import { readFileSync } from 'node:fs';
import { builtinNames } from './builtins';
import { run, value } from './eval.spec-helper';

describe('eval built-ins: convenience', () => {
  it.each([
    ['has(x)', { x: '' }, true],
    ['has(y)', { x: 1 }, false],
    ['has("x")', { x: 1 }, true],
    ['has(SRC)', {}, true],
    ['in(v, "turnip", "potato")', { v: 'potato' }, true],
    ['in(v, 200, 404)', { v: '404' }, true],
    ['in(v, "a", "b")', { v: 'c' }, false],
    ['in(3, {1, 2, 3})', {}, true],
    ['len("héllo")', {}, 5],
    ['len({1, {2, 3}})', {}, 2],
    ['len(n)', { n: 12345 }, 5],
    ['type(n)', { n: 1 }, 'int'],
    ['type(1.5)', {}, 'float'],
    ['type("a")', {}, 'string'],
    ['type(true)', {}, 'bool'],
    ['type({1})', {}, 'array'],
    ['type(duration("1s"))', {}, 'duration'],
    ['type(TIMESTAMP)', {}, 'time'],
    ['type(byte(3))', {}, 'uint8'],
    ['unix(TIMESTAMP)', {}, 1704067200],
    ['unix("2024-01-01T00:01:00Z")', {}, 1704067260],
    ['match(s, "^ab+c$")', { s: 'abbbc' }, true],
    ['match(s, pat)', { s: 'abc', pat: 'x|b' }, true],
    ['match(s, pat)', { s: 'abc', pat: '(' }, undefined],
    ['indirect("f" + "oo")', { foo: 'bar' }, 'bar'],
    ['indirect("f" + "oo")', {}, 'foo'],
    ['ip_in_cidr(SRC, "10.0.0.0/8")', {}, true],
    ['ip_in_cidr("10.2.254.7", "10.2.254.0/24")', {}, true],
    ['ip_in_cidr("10.2.253.7", "10.2.254.0/24")', {}, false],
    ['ip_in_cidr("fe80::1", "fe80::/10")', {}, true],
    ['ip_in_cidr("1.2.3.4", "nonsense")', {}, undefined],
  ])('%s with %j = %p', (expr, evs, want) => {
    expect(value(expr, evs as Record<string, string | number>)).toEqual(want);
  });

  it('append, delete, keys, has_key, evs, evs_to_json, set_data', () => {
    expect(run('a = {1}; append(a, "x"); append(b, 2);').evs).toEqual({ a: '[ 1 x ]', b: '[ 2 ]' });
    expect(run('delete(gone); delete("also");', { gone: 1, also: 2, kept: 3 }).evs).toEqual({ kept: 3 });
    expect(run('map m; m["b"] = 1; m["a"] = 2; k = keys(m); h = has_key(m, "a"); n = has_key(m, "z");').evs).toEqual({ k: '[ b a ]', h: true, n: false });
    expect(run('x = 1; names = evs();', { a: 'z' }).evs.names).toBe('[ a x ]');
    expect(run('n = 2.5; out = evs_to_json();', { Appname: 'web', ok: true }).evs.out).toBe('{"Appname":"web","ok":true,"n":2.5}');
    expect(run('set_data(printf("%s!", DATA));').entry.data.toString()).toBe('hello world!');
  });
});

describe('eval built-ins: printf (Go verbs)', () => {
  it.each([
    ['"%d|%5d|%-5d|%05d|%+d|%x|%X|%o|%b|%#x"', '42, 42, 42, -42, 42, 255, 255, 8, 5, 255', '42|   42|42   |-0042|+42|ff|FF|10|101|0xff'],
    [
      '"%f|%.2f|%8.3f|%e|%g|%v|%v|%v"',
      '3.14159, 3.14159, 3.14159, 1234.5678, 0.000012345, 2.5, 1000000.0, 100000.0',
      '3.141590|3.14|   3.142|1.234568e+03|1.2345e-05|2.5|1e+06|100000',
    ],
    ['"%s|%q|%.2s|%5s|%-5s|%t|%T|%c|%U|%%"', '"abc", "a\\"b", "xyz", "ab", "ab", true, 1.5, 65, 0x1F600', 'abc|"a\\"b"|xy|   ab|ab   |true|float|A|U+1F600|%'],
    ['"%v %v %v %v"', 'ip("10.1.2.3"), duration("1500ms"), {1, "a"}, TIMESTAMP', '10.1.2.3 1.5s [ 1 a ] 2024-01-01T00:00:00.000000Z'],
    ['"%d %s"', '"12", 5', '12 5'],
    ['"%x"', '"hi"', '6869'],
    ['"%d %d"', '1', '1 %!d(MISSING)'],
    ['"%d"', '1, "x"', '1%!(EXTRA string=x)'],
    ['"%d"', '"abc"', '%!d(string=abc)'],
    ['"%*d|%-*d|%.*f"', '4, 7, 3, 7, 1, 2.26', '   7|7  |2.3'],
    ['"%z"', '1', '%!z(int=1)'],
  ])('printf(%s, %s)', (format, args, want) => {
    expect(value(`printf(${format}, ${args})`)).toBe(want);
  });
});

describe('eval built-ins: strings_* and pretty_*', () => {
  it.each([
    ['strings_count("cheese", "e")', 3],
    ['strings_count("five", "")', 5],
    ['strings_hasprefix("golang", "go")', true],
    ['strings_hassuffix("golang", "go")', false],
    ['strings_index("chicken", "ken")', 4],
    ['strings_index("chicken", "dmr")', -1],
    ['strings_replace("oink oink oink", "k", "ky", 2)', 'oinky oinky oink'],
    ['strings_replace("oink oink oink", "oink", "moo", -1)', 'moo moo moo'],
    ['strings_replace("ab", "", "-", -1)', '-a-b-'],
    ['strings_tolower("Gopher")', 'gopher'],
    ['strings_toupper("Gopher")', 'GOPHER'],
    ['strings_totitle("loud noises")', 'LOUD NOISES'],
    ['strings_trim("¡¡¡Hello, Gophers!!!", "!¡")', 'Hello, Gophers'],
    ['strings_trimleft("¡¡¡Hello!!!", "!¡")', 'Hello!!!'],
    ['strings_trimright("¡¡¡Hello!!!", "!¡")', '¡¡¡Hello'],
    ['strings_trimprefix("¡¡¡Hello", "¡¡¡")', 'Hello'],
    ['strings_trimsuffix("Hello.txt", ".txt")', 'Hello'],
    ['strings_trimspace("  \\t hi \\n ")', 'hi'],
    ['strings_tolower(missing)', undefined],
    ['pretty_size(1234567)', '1.18 MB'],
    ['pretty_size(512)', '512 B'],
    ['pretty_count(1234567)', '1.23 M'],
    ['pretty_count(999)', '999'],
    ['pretty_rate(1234567, "2s")', '602.82 KB/s'],
    ['pretty_line_rate(1234567, "2s")', '4.71 Mb/s'],
  ])('%s = %p', (expr, want) => {
    expect(value(expr)).toEqual(want);
  });
});

describe('eval built-ins: math', () => {
  it.each([
    ['ceil(1.2)', 2],
    ['floor(-1.2)', -2],
    ['round(2.5)', 3],
    ['round(-2.5)', -3],
    ['math_abs(-3)', 3],
    ['math_ceil(1.01)', 2],
    ['math_floor(1.99)', 1],
    ['math_round(0.5)', 1],
    ['math_roundtoeven(2.5)', 2],
    ['math_roundtoeven(3.5)', 4],
    ['math_trunc(-3.9)', -3],
    ['math_sqrt(16)', 4],
    ['math_log(1)', 0],
    ['math_log10(1000)', 3],
    ['math_log2(8)', 3],
    ['math_max(2, "7")', 7],
    ['math_min(2, 7)', 2],
    ['math_mod(7, 3)', 1],
    ['math_remainder(7, 4)', -1],
    ['math_pow(2, 10)', 1024],
    ['math_acos(1)', 0],
    ['math_acosh(1)', 0],
    ['math_asin(0)', 0],
    ['math_asinh(0)', 0],
    ['math_atan(0)', 0],
    ['math_atan2(0, 1)', 0],
    ['math_cos(0)', 1],
    ['math_cosh(0)', 1],
    ['math_sin(0)', 0],
    ['math_sinh(0)', 0],
    ['math_tan(0)', 0],
    ['math_tanh(0)', 0],
    ['type(math_pow(2, 2))', 'float'],
    ['math_sqrt("x")', undefined],
    ['math_sqrt(-1)', 'NaN'],
  ])('%s = %p', (expr, want) => {
    expect(value(expr)).toEqual(want);
  });
});

describe('eval built-ins: JSON', () => {
  const obj = '`{"a":5,"b":"x","c":[1,2],"d":{"e":true}}`';
  it.each([
    [`json(${obj})`, true],
    ['json("{nope")', false],
    [`json_get(${obj}, "a")`, 5],
    [`type(json_get(${obj}, "a"))`, 'float'],
    [`json_get(${obj}, "b")`, 'x'],
    [`json_get(${obj}, "c")`, '[1,2]'],
    [`json_get(${obj}, "z")`, undefined],
    ['json_index("[10, \\"x\\", true]", 2)', true],
    ['json_index("[10]", 5)', undefined],
    [`json_keys(${obj})`, '[ a b c d ]'],
    ['json_len("[1,2,3]")', 3],
    ['json_array(5)', '[5]'],
    ['json_array({1, "a", `{"k":1}`})', '[[1,"a",{"k":1}]]'],
    ['json_object("k", ip("1.2.3.4"))', '{"k":"1.2.3.4"}'],
    ['json_append("[1]", "x")', '[1,"x"]'],
    ['json_array_set("[1,2]", 1, false)', '[1,false]'],
    ['json_array_set("[1,2]", 5, false)', undefined],
    ['json_set("{}", "k", 1.5)', '{"k":1.5}'],
    ['json_set(`{"a":1}`, "b", `{"c":2}`)', '{"a":1,"b":{"c":2}}'],
    ['json_pretty(`{"a":[1]}`)', '{\n  "a": [\n    1\n  ]\n}'],
    ['json_to_gravwell_array(`[1, "a", [true, 2.5], {"k":1}]`)', '[ 1 a [ true 2.5 ] {"k":1} ]'],
    ['json_to_gravwell_array("{}")', undefined],
  ])('%s = %p', (expr, want) => {
    expect(value(expr)).toEqual(want);
  });

  it('builds a JSON object from EVs as the product page does', () => {
    const p = 'output = "{}"; output = json_set(output, "Appname", Appname); output = json_set(output, "Hostname", Hostname);';
    expect(run(p, { Appname: 'web', Hostname: 'h1' }).evs.output).toBe('{"Appname":"web","Hostname":"h1"}');
  });
});

describe('eval built-ins: hashes, encodings, paths, random numbers', () => {
  it.each([
    ['hash_md5("abc")', '900150983cd24fb0d6963f7d28e17f72'],
    ['hash_sha1("abc")', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
    ['hash_sha256("abc")', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['len(hash_sha512("abc"))', 128],
    ['base64_encode("hello")', 'aGVsbG8='],
    ['base64_decode("aGVsbG8=")', 'hello'],
    ['base64_decode("!!")', undefined],
    ['hex_encode("hi")', '6869'],
    ['hex_decode("6869")', 'hi'],
    ['hex_decode("zz")', undefined],
    ['html_escape("<a href=\\"x\\">&\'</a>")', '&lt;a href=&#34;x&#34;&gt;&amp;&#39;&lt;/a&gt;'],
    ['html_unescape("&lt;b&gt; &amp; &#39; &#x41; &quot;")', '<b> & \' A "'],
    ['path_base("/a/b/c.txt")', 'c.txt'],
    ['path_base("/a/b/")', 'b'],
    ['path_base("")', '.'],
    ['path_clean("/../a/b/../././/c")', '/a/c'],
    ['path_clean("a/../..")', '..'],
    ['path_dir("/a/b/c")', '/a/b'],
    ['path_dir("c")', '.'],
    ['path_ext("/a/b.tar.gz")', '.gz'],
    ['path_ext("/a.b/c")', ''],
    ['path_isabs("/a")', true],
    ['path_isabs("a")', false],
    ['path_join("a", "", "b/", "../c")', 'a/c'],
    ['path_match("*.txt", "a.txt")', true],
    ['path_match("*.txt", "d/a.txt")', false],
    ['path_match("a?[0-9]", "ab7")', true],
    ['path_match("[", "a")', undefined],
    ['path_match("[a-", "a")', undefined],
    ['path_match("a\\\\*b", "a*b")', true],
    ['path_match("a\\\\*b", "axb")', false],
    ['path_match("[^a-c]x", "dx")', true],
    ['path_match("[^a-c]x", "bx")', false],
    ['path_match("a*/b", "abc/b")', true],
    ['path_match("*", "a/b")', false],
    ['path_match("*x", "a/x")', false],
    ['path_match("*.go", "x.go.go")', true],
    ['path_match("**c", "abc")', true],
  ])('%s = %p', (expr, want) => {
    expect(value(expr)).toEqual(want);
  });

  it('random numbers stay in their ranges', () => {
    const r = run('f = rand_float(); i = rand_int(); n = rand_intn(10); g = rand_normal(); bad = rand_intn(0);').evs;
    expect(r.f).toBeGreaterThanOrEqual(0);
    expect(r.f).toBeLessThan(1);
    expect(Number.isInteger(r.i) && (r.i as number) >= 0).toBe(true);
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).toContain(r.n);
    expect(typeof r.g).toBe('number');
    expect(r.bad).toBeUndefined();
  });
});

it('every built-in is covered by this file', () => {
  const tested = new Set([...readFileSync(__filename, 'utf8').matchAll(/\b([a-z][a-z0-9_]*)\(/g)].map((m) => m[1]));
  expect(builtinNames().filter((n) => !tested.has(n))).toEqual([]);
});
