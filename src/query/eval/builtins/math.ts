/** math_* built-ins and the legacy ceil/floor/round; all return floats. */
import { floatFn } from './args';
import { Builtin } from './registry';

/** Rounds half away from zero (Go math.Round). */
const roundAway = (x: number): number => (x < 0 ? -Math.round(-x) : Math.round(x));

/** Rounds half to even (Go math.RoundToEven). */
function roundEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** IEEE 754 remainder (Go math.Remainder): x - n*y with n = x/y rounded to even. */
const remainder = (x: number, y: number): number => x - roundEven(x / y) * y;

export const MATH: Builtin[] = [
  floatFn('ceil', 1, Math.ceil),
  floatFn('floor', 1, Math.floor),
  floatFn('round', 1, roundAway),
  floatFn('math_abs', 1, Math.abs),
  floatFn('math_ceil', 1, Math.ceil),
  floatFn('math_floor', 1, Math.floor),
  floatFn('math_round', 1, roundAway),
  floatFn('math_roundtoeven', 1, roundEven),
  floatFn('math_trunc', 1, Math.trunc),
  floatFn('math_sqrt', 1, Math.sqrt),
  floatFn('math_log', 1, Math.log),
  floatFn('math_log10', 1, Math.log10),
  floatFn('math_log2', 1, Math.log2),
  floatFn('math_max', 2, Math.max),
  floatFn('math_min', 2, Math.min),
  floatFn('math_mod', 2, (x, y) => x % y),
  floatFn('math_remainder', 2, remainder),
  floatFn('math_pow', 2, Math.pow),
  floatFn('math_acos', 1, Math.acos),
  floatFn('math_acosh', 1, Math.acosh),
  floatFn('math_asin', 1, Math.asin),
  floatFn('math_asinh', 1, Math.asinh),
  floatFn('math_atan', 1, Math.atan),
  floatFn('math_atan2', 2, Math.atan2),
  floatFn('math_cos', 1, Math.cos),
  floatFn('math_cosh', 1, Math.cosh),
  floatFn('math_sin', 1, Math.sin),
  floatFn('math_sinh', 1, Math.sinh),
  floatFn('math_tan', 1, Math.tan),
  floatFn('math_tanh', 1, Math.tanh),
];
