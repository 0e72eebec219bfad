import fc from 'fast-check';
import { formatValue, parseFormat, Verb } from './go-format';
import { expectDistributedEqual, linesToEntries, parseError, run, strings } from './extraction.spec-helper';

/** Formats one value with a one-verb format (text around the verb kept). */
function fmt(f: string, x: Parameters<typeof formatValue>[1]): string {
  return parseFormat(f)
    .map((p) => (typeof p === 'string' ? p : formatValue(p as Verb, x)))
    .join('');
}

describe('printf module', () => {
  it('formats the page\'s example into "printf" (or -e target)', () => {
    const d = linesToEntries(['{"SrcPort":51234,"DstPort":443}', '{"SrcPort":53,"DstPort":"x"}']);
    const q = 'json SrcPort DstPort | printf "The source port is %v and the destination port is %v!" SrcPort DstPort';
    expect(strings(q, d, ['printf'])).toEqual([['The source port is 51234 and the destination port is 443!'], ['The source port is 53 and the destination port is x!']]);
    expect(strings('json SrcPort DstPort | printf -e dial "%s:%05d" SrcPort DstPort', d, ['dial', 'printf'])).toEqual([
      ['51234:00443', undefined],
      ['53:%!d(string=x)', undefined],
    ]);
  });

  it('leaves entries lacking a value without output, and keeps them', () => {
    const d = linesToEntries(['a=1 b=2', 'a=3']);
    expect(strings('kv a b | printf "%s-%s" a b', d, ['printf'])).toEqual([['1-2'], [undefined]]);
    expect(strings('printf "%%d of %s" SRC', d, ['printf'])).toEqual([['%d of 10.0.0.1'], ['%d of 10.0.0.1']]);
  });

  // Go's fmt answers for the verbs and flags the page lists (checked against Go's documented behaviour)
  it.each<[string, string | number | boolean | Buffer, string]>([
    ['%v', 80, '80'],
    ['%v', 1.5, '1.5'],
    ['%v', 1234567.5, '1.2345675e+06'],
    ['%v', 0.00001234, '1.234e-05'],
    ['%v', 123456.7, '123456.7'],
    ['%5d|', 42, '   42|'],
    ['%-5d|', 42, '42   |'],
    ['%05d', -42, '-0042'],
    ['%+d', 42, '+42'],
    ['% d', 42, ' 42'],
    ['%x', 255, 'ff'],
    ['%X', 255, 'FF'],
    ['%#x', 255, '0xff'],
    ['%#08x', 255, '0x000000ff'],
    ['%x', -255, '-ff'],
    ['%o', 8, '10'],
    ['%#o', 8, '010'],
    ['%O', 8, '0o10'],
    ['%b', 5, '101'],
    ['%#b', 5, '0b101'],
    ['%c', 65, 'A'],
    ['%q', 65, "'A'"],
    ['%U', 0x1f600, 'U+1F600'],
    ['%#U', 0x78, "U+0078 'x'"],
    ['%e', 1234.5678, '1.234568e+03'],
    ['%E', 1234.5678, '1.234568E+03'],
    ['%.2e', 0, '0.00e+00'],
    ['%f', 3.14159, '3.141590'],
    ['%F', 3.14159, '3.141590'],
    ['%.2f', 3.14159, '3.14'],
    ['%.1f', 2.25, '2.2'], // exact ties round half to even, as Go's strconv
    ['%.2f', 0.125, '0.12'],
    ['%.0f', 2.5, '2'],
    ['%.0f', 3.5, '4'],
    ['%.1f', 0.35, '0.3'], // 0.35 is 0.34999... in binary
    ['%.3e', 1.0005, '1.000e+00'],
    ['%f', 1e22, '10000000000000000000000.000000'],
    ['%8.3f', -3.14159, '  -3.142'],
    ['%08.3f', -3.14159, '-003.142'],
    ['%g', 100000, '100000'],
    ['%g', 1000000, '1e+06'],
    ['%g', 0.0001, '0.0001'],
    ['%.3g', 1234.5, '1.23e+03'],
    ['%G', 1e-7, '1E-07'],
    ['%#g', 1, '1.00000'],
    ['%#.0f', 1, '1.'],
    ['%s', 'hello', 'hello'],
    ['%.3s', 'héllo', 'hél'],
    ['%10s|', 'x', '         x|'],
    ['%-10s|', 'x', 'x         |'],
    ['%q', 'a"b\n', '"a\\"b\\n"'],
    ['%+q', 'é', '"\\u00e9"'],
    ['%q', 'é\u00a0\u200b', '"é\\u00a0\\u200b"'], // Go's IsPrint: other spaces and format characters are escaped
    ['%#q', 'ab', '`ab`'],
    ['%x', 'hi', '6869'],
    ['% x', 'hi', '68 69'],
    ['%X', Buffer.from([1, 255]), '01FF'],
    ['%t', true, 'true'],
    ['%v', Infinity, '+Inf'],
    ['%f', NaN, 'NaN'],
    ['%d', 2 ** 60, '1152921504606846976'],
    ['%.0d', 0, ''],
  ])('%s of %p is %p', (f, x, out) => {
    expect(fmt(f, x)).toBe(out);
  });

  it.each<[string, string | number | boolean, string]>([
    ['%d', '42', '42'], // numeric text is a number for the numeric verbs (Go would refuse a string)
    ['%.1f', ' 2.75', '2.8'],
    ['%s', 5, '5'], // %s prints any value
    ['%d', 'abc', '%!d(string=abc)'], // what is still wrong prints as Go prints it
    ['%d', 1.5, '%!d(float64=1.5)'],
    ['%t', 'x', '%!t(string=x)'],
  ])('decision: %s of %p is %p', (f, x, out) => {
    expect(fmt(f, x)).toBe(out);
  });

  it('properties: %s is the text, %d of an integer is its digits, %x of bytes their hex, width pads to at least it', () => {
    fc.assert(fc.property(fc.string(), (s) => fmt('%s', s) === s));
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => fmt('%d', n) === String(n) && fmt('%x', n) === (n < 0 ? '-' : '') + Math.abs(n).toString(16)));
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (b) => fmt('%x', Buffer.from(b)) === Buffer.from(b).toString('hex')));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.double({ noNaN: true }), (w, x) => {
        const out = fmt(`%${w}.2f`, x);
        return out.length >= w && out.trim() === fmt('%.2f', x);
      }),
    );
    // an independent check of the rounding: %.Nf reads back within half a unit of the last place
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        (n, x) => Math.abs(Number(fmt(`%.${n}f`, x)) - x) <= 0.5 * 10 ** -n * (1 + 1e-9) + Math.abs(x) * 1e-15,
      ),
    );
  });

  it('bounds its output: a huge value is written once, widths and precisions are capped', () => {
    const big = 'x'.repeat(1_000_000);
    const d = linesToEntries([`v=${big}`]);
    expect(strings('kv v | printf "[%.5s]" v', d, ['printf'])).toEqual([['[xxxxx]']]);
    expect(strings('kv v | printf "%s" v', d, ['printf'])[0][0]!.length).toBe(1_000_000);
    expect(strings('printf "%v" DATA', linesToEntries([Buffer.from([0xff, 0x00, 0xfe])]), ['printf'])[0][0]).toBe('\ufffd\u0000\ufffd');
    // a short query naming a huge value many times cannot build gigabytes: past 16 MiB, no output and a warning
    const many = run(`kv v | printf "${'%s'.repeat(20)}" ${'v '.repeat(20)}`, d);
    expect(many.kind === 'entries' && many.Entries[0].evs.has('printf')).toBe(false);
    expect(many.Warnings).toEqual(['printf: the text for an entry would pass 16 MiB; such entries get no output']);
  });

  it.each([
    ['printf', 'ModuleError: printf: missing format string, e.g. printf "%s:%d" host port'],
    ['printf "%s %s" a', 'ModuleError: printf: the format string has 2 verbs but 1 enumerated value is given'],
    ['printf "no verbs" a b', 'ModuleError: printf: the format string has 0 verbs but 2 enumerated values are given'],
    ['printf "%y" a', 'ModuleError: printf: unknown verb %y in the format string (verbs: %v %s %b %c %d %o %O %q %x %X %U %e %E %f %F %g %G %t, %% for a literal %)'],
    ['printf "100%" a', 'ModuleError: printf: the format string ends inside a verb (write %% for a literal %)'],
    ['printf "%99999d" a', 'ModuleError: printf: width 99999 in the format string is too large (at most 1000)'],
    ['printf "%.500f" a', 'ModuleError: printf: precision 500 in the format string is too large (at most 100)'],
    ['printf "%*d" a', 'ModuleError: printf: "*" in a format verb is not supported: write the width and precision as numbers'],
    ['printf "%[1]d" a', 'ModuleError: printf: "[" in a format verb is not supported: write the width and precision as numbers'],
    ['printf -e "" "%s" a', 'ModuleError: printf: target must not be empty'],
    ['printf -t x "%s" a', 'ModuleError: printf: unknown flag -t'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('kv a | printf "%05.1f" a | count by printf', linesToEntries(['a=1', 'a=2.25', 'a=x', 'b=1']));
  });
});
