/** Persistent `var`s and `map`s of one compiled program, with their memory accounted. */
import { EvalLimits, EvalRuntimeError } from './limits';
import { approxBytes, Value } from './value';

export class PersistentState {
  initialized = false;
  readonly vars: Value[];
  readonly maps: Array<Map<string, Value>>;
  private readonly varBytes: number[];
  private bytes = 0;

  constructor(
    nVars: number,
    nMaps: number,
    private readonly limits: EvalLimits,
  ) {
    this.vars = new Array<Value>(nVars).fill(null);
    this.varBytes = new Array<number>(nVars).fill(0);
    this.maps = Array.from({ length: nMaps }, () => new Map<string, Value>());
  }

  /** Adds (or, negative, frees) bytes; throws when the total passes the limit. */
  account(delta: number): void {
    this.bytes += delta;
    if (this.bytes > this.limits.maxPersistentBytes) {
      throw new EvalRuntimeError(`persistent variables and maps hold more than ${this.limits.maxPersistentBytes} bytes (the limit)`);
    }
  }

  setVar(slot: number, v: Value): void {
    const b = approxBytes(v);
    this.account(b - this.varBytes[slot]);
    this.varBytes[slot] = b;
    this.vars[slot] = v;
  }

  /** Sets a key; no value deletes it. A new key past the key limit is discarded, as the product does. */
  setKey(slot: number, key: string, v: Value): void {
    const m = this.maps[slot];
    const old = m.get(key);
    const oldBytes = old === undefined ? 0 : approxBytes(old) + 16 + 2 * key.length;
    if (v === null) {
      if (old !== undefined) {
        m.delete(key);
        this.account(-oldBytes);
      }
      return;
    }
    if (old === undefined && m.size >= this.limits.maxMapKeys) return;
    this.account(approxBytes(v) + 16 + 2 * key.length - oldBytes);
    m.set(key, v);
  }
}
