/** Go-style float text: %v (shortest, exponent from 1e+06 and below 1e-04), %e, %f, %g. */

function special(x: number): string | null {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  return null;
}

function expPart(exp: number): string {
  return `e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Splits JavaScript exponent notation "1.5e+7" into mantissa and exponent. */
function splitExp(s: string): [string, number] {
  const i = s.indexOf('e');
  return [s.slice(0, i), Number(s.slice(i + 1))];
}

/** Plain decimal digits of a finite number with `digits` decimals (no exponent, even for 1e21+). */
export function toFixedFull(x: number, digits: number): string {
  const d = Math.min(100, Math.max(0, digits));
  if (Math.abs(x) < 1e21) return x.toFixed(d);
  const whole = BigInt(Math.trunc(x)).toString();
  return d > 0 ? `${whole}.${'0'.repeat(d)}` : whole;
}

/** Go %v / strconv 'g' with the shortest representation (1e+06, 123456, 0.0001, 1e-05). */
export function goFloat(x: number): string {
  const s = special(x);
  if (s !== null) return s;
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mant, exp] = splitExp(x.toExponential());
  if (exp < -4 || exp >= 6) return mant + expPart(exp);
  return String(x);
}

/** %e with `prec` decimals (default 6). */
export function goExp(x: number, prec: number, upper = false): string {
  const s = special(x);
  if (s !== null) return s;
  const [mant, exp] = splitExp(x.toExponential(Math.min(100, prec)));
  const out = mant + expPart(exp);
  return upper ? out.toUpperCase() : out;
}

/** %g with `prec` significant digits (negative: shortest). */
export function goG(x: number, prec: number, upper = false): string {
  if (prec < 0) return upper ? goFloat(x).toUpperCase() : goFloat(x);
  const s = special(x);
  if (s !== null) return s;
  const p = Math.max(1, Math.min(100, prec));
  const [mant, exp] = splitExp(x.toExponential(p - 1));
  let out: string;
  if (exp < -4 || exp >= p) out = mant.replace(/\.?0+$/, '') + expPart(exp);
  else
    out = x
      .toFixed(Math.max(0, p - 1 - exp))
      .replace(/(\.\d*?)0+$/, '$1')
      .replace(/\.$/, '');
  return upper ? out.toUpperCase() : out;
}
