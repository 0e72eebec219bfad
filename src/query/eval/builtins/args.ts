/** Argument helpers for built-ins: text, numbers, and "no value in, no value out". */
import { numeric, toFloat, toStr } from '../convert';
import { float, int, Value } from '../value';
import { Builtin, CallCtx } from './registry';

/** The text of an argument (numbers, IPs... as printed); null for no value. */
export function text(v: Value): string | null {
  return v === null ? null : toStr(v);
}

/** A float argument (numbers, numeric text); null otherwise. */
export function num(v: Value): number | null {
  return toFloat(v)?.v ?? null;
}

/** An integer argument; null otherwise. */
export function integer(v: Value): number | null {
  const n = numeric(v);
  return n && Number.isFinite(n.v) ? Math.trunc(n.v) : null;
}

/** Builds a function of text arguments: any missing argument gives no value. */
export function textFn(name: string, sig: string, n: number, f: (args: string[], ctx: CallCtx) => Value): Builtin {
  return {
    name,
    sig,
    min: n,
    max: n,
    fn(args, ctx) {
      const t = args.map(text);
      return t.includes(null) ? null : f(t as string[], ctx);
    },
  };
}

/** Builds a function of float arguments returning a float. */
export function floatFn(name: string, n: number, f: (...x: number[]) => number): Builtin {
  const params = ['x', 'y'].slice(0, n).join(', ');
  return {
    name,
    sig: `${name}(${params}) float`,
    min: n,
    max: n,
    fn(args) {
      const x = args.map(num);
      return x.includes(null) ? null : float(f(...(x as number[])));
    },
  };
}

export const intOrNull = (n: number | null): Value => (n === null ? null : int(n));
