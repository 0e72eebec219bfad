/** One run of a program on one entry: step budget, size checks, variables, places and EV output. */
import { Entry, RuntimeContext } from '../types';
import { Expr, LValue, ProgramAst, VarRef } from './ast';
import { indexValue, keyOf, setIn, sizeOf } from './access';
import { CallCtx } from './builtins';
import { readEV, toEV } from './convert';
import { CHUNK, EvalLimits, EvalRuntimeError, MAX_ARRAY_DEPTH } from './limits';
import { PersistentState } from './state';
import { adopt, arrayDepth, isObj, leafCount, Value } from './value';

const UNSET = Symbol('unset');
type Slot = Value | typeof UNSET;

/** What a run needs from its compiled program. */
export interface ProgramEnv {
  ast: ProgramAst;
  limits: EvalLimits;
  state: PersistentState;
  slotOf: Map<string, number>;
  varOf: Map<string, number>;
  regex(pattern: string): RegExp | null;
}

/** The per-entry step budget: the search's EVAL_MAX_STEPS (query limits), else the program's own default. */
function stepBudget(rt: RuntimeContext, fallback: number): number {
  const configured = rt.limits?.evalSteps;
  return typeof configured === 'number' && configured > 0 ? configured : fallback;
}

export abstract class RunBase implements CallCtx {
  protected steps = 0;
  protected readonly max: number;
  private readonly slots: Slot[];
  private readonly dirty: Uint8Array;

  constructor(
    protected readonly env: ProgramEnv,
    readonly entry: Entry,
    readonly rt: RuntimeContext,
  ) {
    this.max = stepBudget(rt, env.limits.maxSteps);
    this.slots = new Array<Slot>(env.ast.slots.length).fill(UNSET);
    this.dirty = new Uint8Array(env.ast.slots.length);
  }

  abstract eval(e: Expr): Value;

  protected overBudget(): never {
    throw new EvalRuntimeError(`the program ran more than ${this.max} steps on one entry (the per-entry step budget, EVAL_MAX_STEPS); does a loop never end?`);
  }

  charge(work: number): void {
    this.steps += 1 + Math.floor(work / CHUNK);
    if (this.steps > this.max) this.overBudget();
  }

  /** Checks a produced value against the size limits and pays for its size. */
  protected checked(v: Value): Value {
    if (typeof v === 'string') {
      if (v.length > this.env.limits.maxStringLength) throw new EvalRuntimeError(`a string is longer than ${this.env.limits.maxStringLength} characters (the string limit)`);
      if (v.length > CHUNK) this.charge(v.length);
    } else if (isObj(v, 'array')) {
      if (arrayDepth(v, MAX_ARRAY_DEPTH) > MAX_ARRAY_DEPTH) this.tooDeep();
      if (v.a.length > this.env.limits.maxArrayLength || leafCount(v) > this.env.limits.maxArrayLength) this.tooLong();
    }
    return v;
  }

  protected tooDeep(): never {
    throw new EvalRuntimeError(`arrays nested more than ${MAX_ARRAY_DEPTH} levels deep`);
  }

  protected tooLong(): never {
    throw new EvalRuntimeError(`an array has more than ${this.env.limits.maxArrayLength} elements, nested ones included (the array limit)`);
  }

  /** A value about to be stored: arrays owned elsewhere are copied (and paid for). */
  protected store(v: Value): Value {
    const { value, work } = adopt(v);
    if (work) this.charge(work);
    return value;
  }

  /** Writes the variables the program set to the entry's EVs (no value removes the EV). */
  protected writeBack(): void {
    const names = this.env.ast.slots;
    for (let i = 0; i < names.length; i++) {
      if (!this.dirty[i]) continue;
      const v = this.slots[i] as Value;
      const ev = toEV(v);
      if (ev === undefined) this.entry.evs.delete(names[i]);
      else this.entry.evs.set(names[i], ev);
    }
  }

  // ---- variables and places

  protected readRef(ref: VarRef): Value {
    if (ref.scope === 'entry') {
      const s = this.slots[ref.slot];
      if (s !== UNSET) return s;
      const v = readEV(this.entry, ref.name, this.rt);
      this.slots[ref.slot] = v; // cached, not dirty: it is the EV
      return v;
    }
    if (ref.scope === 'var') return this.env.state.vars[ref.slot];
    return { k: 'map', name: ref.name, m: this.env.state.maps[ref.slot] };
  }

  private setRef(ref: VarRef, v: Value): void {
    if (ref.scope === 'entry') {
      this.slots[ref.slot] = v;
      this.dirty[ref.slot] = 1;
    } else if (ref.scope === 'var') {
      this.env.state.setVar(ref.slot, v);
    }
  }

  protected readPlace(lv: LValue): Value {
    let v = this.readRef(lv.ref);
    for (const p of lv.path) v = indexValue(v, this.eval(p));
    return v;
  }

  /** Records an in-place change of the value at `lv` (an EV to write, persistent bytes to count). */
  protected touched(lv: LValue, added: Value): void {
    if (lv.ref.scope === 'entry') this.dirty[lv.ref.slot] = 1;
    else this.env.state.account(16 + sizeOf(added) * 2);
  }

  protected assign(lv: LValue, v: Value): void {
    const { ref, path } = lv;
    if (path.length === 0) return this.setRef(ref, this.store(this.checked(v)));
    const keys = path.map((p) => this.eval(p));
    if (isObj(v, 'array') && path.length + arrayDepth(v, MAX_ARRAY_DEPTH) > MAX_ARRAY_DEPTH) this.tooDeep();
    const put = (x: Value) => this.store(this.checked(x));
    if (ref.scope === 'map') {
      const key = keyOf(keys[0]);
      if (key === null) return;
      if (keys.length === 1) return this.env.state.setKey(ref.slot, key, put(v));
      const cur = this.env.state.maps[ref.slot].get(key);
      if (cur === undefined) return;
      const r = setIn(cur, keys, 1, v, put);
      if (r.value !== cur) this.env.state.setKey(ref.slot, key, r.value);
      else this.env.state.account(r.delta);
      return;
    }
    const cur = this.readRef(ref);
    const r = setIn(cur, keys, 0, v, put);
    if (r.value !== cur) this.setRef(ref, this.checked(r.value));
    else if (r.delta !== 0 || r.changed) this.touched(lv, null);
  }

  // ---- CallCtx

  readName(name: string): Value {
    const s = this.env.slotOf.get(name);
    if (s !== undefined) return this.readRef({ scope: 'entry', slot: s, name });
    const v = this.env.varOf.get(name);
    if (v !== undefined) return this.env.state.vars[v];
    return readEV(this.entry, name, this.rt);
  }

  deleteName(name: string): void {
    const s = this.env.slotOf.get(name);
    if (s !== undefined) this.setRef({ scope: 'entry', slot: s, name }, null);
    else this.entry.evs.delete(name);
  }

  evNames(): string[] {
    const names = new Set(this.entry.evs.keys());
    this.env.ast.slots.forEach((n, i) => {
      if (!this.dirty[i]) return;
      if (this.slots[i] === null) names.delete(n);
      else names.add(n);
    });
    return [...names];
  }

  setData(data: Buffer): void {
    this.entry.data = data;
  }

  regex(pattern: string): RegExp | null {
    return this.env.regex(pattern);
  }
}
