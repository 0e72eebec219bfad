/**
 * `slice [type(]EV[start:end][)] [op value] [as name] ...`: bytes of the entry data or of an
 * enumerated value at Go-style offsets (negative ones count from the end), optionally cast.
 */
import { ArgReader } from '../args';
import { FilterOp, InlineFilter, isFilterOp, testFilter } from '../filter';
import { Token } from '../lexer';
import { Entry, EVValue, ModuleArgError, RuntimeContext } from '../types';
import { evToString } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';
import { formatIp, maskBytes, parseIp, sameBytes } from './ip-addr';
import { MAX_BUILT_VALUE, readValue, valueBytes } from './transform-common';
import { addWarning } from '../warnings';

type NumType = { size: 1 | 2 | 4 | 8; kind: 'int' | 'uint' | 'float'; be: boolean };
type SliceType = NumType | { kind: 'array' | 'string' | 'IPv4' | 'IPv6' };

const NUMERIC_OPS: readonly FilterOp[] = ['==', '!=', '<', '<=', '>', '>='];
const EQUALITY_OPS: readonly FilterOp[] = ['==', '!=', '~', '!~'];

function typeOf(name: string): SliceType | undefined {
  if (name === 'byte') return { size: 1, kind: 'uint', be: false };
  if (name === 'array' || name === 'string' || name === 'IPv4' || name === 'IPv6') return { kind: name };
  const m = /^(u?int|float)(16|32|64)(le|be)?$/.exec(name);
  if (!m || (m[1] === 'float' && m[2] === '16')) return undefined;
  return { size: (Number(m[2]) / 8) as 2 | 4 | 8, kind: m[1] as 'int' | 'uint' | 'float', be: m[3] === 'be' };
}

const TYPES = 'byte, int16 int32 int64, uint16 uint32 uint64, float32 float64 (with le or be), array, string, IPv4, IPv6';

interface Item {
  source: string;
  start?: number;
  end?: number;
  type: SliceType;
  name: string;
  filter?: InlineFilter;
}

function parseRange(text: string): { source: string; start?: number; end?: number } {
  const m = /^(.*?)\[\s*(-?\d*)\s*(?::\s*(-?\d*)\s*)?\]$/.exec(text);
  if (!m) throw new ModuleArgError(`invalid slice "${text}": expected EV[start:end] or [start:end] for the entry data`);
  const num = (s: string | undefined) => (s === undefined || s === '' ? undefined : Number(s));
  const start = num(m[2]);
  const single = m[3] === undefined;
  if (single && start === undefined) throw new ModuleArgError(`invalid slice "${text}": expected EV[start:end]`);
  const end = single ? (start === -1 ? undefined : start! + 1) : num(m[3]);
  for (const n of [start, end]) if (n !== undefined && !Number.isSafeInteger(n)) throw new ModuleArgError(`invalid offset in "${text}"`);
  return { source: m[1] === '' ? 'DATA' : m[1], start, end };
}

/** The bytes at [start:end] (negative offsets from the end); undefined when they fall outside the value. */
export function sliceBytes(b: Buffer, start: number | undefined, end: number | undefined): Buffer | undefined {
  const s = start === undefined ? 0 : start < 0 ? b.length + start : start;
  const e = end === undefined ? b.length : end < 0 ? b.length + end : end;
  if (s < 0 || e > b.length || s > e) return undefined;
  return b.subarray(s, e);
}

/** Casts the bytes; undefined when there are too few for the type. */
export function castBytes(b: Buffer, t: SliceType): EVValue | undefined {
  switch (t.kind) {
    case 'array':
      return Buffer.from(b);
    case 'string':
      return b.toString('utf8');
    case 'IPv4':
      return b.length < 4 ? undefined : `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
    case 'IPv6':
      return b.length < 16 ? undefined : formatIp({ version: 6, bytes: Uint8Array.from(b.subarray(0, 16)) });
    case 'int':
    case 'uint':
    case 'float':
      return castNumber(b, t);
  }
}

function castNumber(b: Buffer, t: NumType): EVValue | undefined {
  if (b.length < t.size) return undefined;
  if (t.kind === 'float') return t.size === 4 ? (t.be ? b.readFloatBE(0) : b.readFloatLE(0)) : t.be ? b.readDoubleBE(0) : b.readDoubleLE(0);
  if (t.size === 8) {
    const n = t.kind === 'int' ? (t.be ? b.readBigInt64BE(0) : b.readBigInt64LE(0)) : t.be ? b.readBigUInt64BE(0) : b.readBigUInt64LE(0);
    const x = Number(n);
    return Number.isSafeInteger(x) ? x : n.toString(); // beyond 2^53: the exact digits as text
  }
  const signed = t.kind === 'int';
  if (t.size === 1) return signed ? b.readInt8(0) : b[0];
  if (t.size === 2) return signed ? (t.be ? b.readInt16BE(0) : b.readInt16LE(0)) : t.be ? b.readUInt16BE(0) : b.readUInt16LE(0);
  return signed ? (t.be ? b.readInt32BE(0) : b.readInt32LE(0)) : t.be ? b.readUInt32BE(0) : b.readUInt32LE(0);
}

/** IP filters: == compares addresses, ~ tests membership of a CIDR (or contains the text). */
function testIpFilter(f: InlineFilter, v: EVValue): boolean {
  const ip = parseIp(evToString(v));
  const [addr, bits] = f.value.split('/');
  const want = parseIp(addr);
  if (!ip || !want) return testFilter(f, v);
  const inNet =
    bits === undefined
      ? sameBytes(ip.bytes, want.bytes)
      : sameBytes(maskBytes(ip.bytes, Number(bits) + (want.version === 4 ? 96 : 0)), maskBytes(want.bytes, Number(bits) + (want.version === 4 ? 96 : 0)));
  return f.op === '==' || f.op === '~' ? inNet : !inNet;
}

function checkIpFilter(value: string, kind: 'IPv4' | 'IPv6'): void {
  const [addr, bits, extra] = value.split('/');
  const ip = parseIp(addr);
  const max = ip?.version === 4 ? 32 : 128;
  if (!ip || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) {
    throw new ModuleArgError(`invalid ${kind} filter value "${value}" (expected an address or a CIDR such as 10.0.0.0/8)`);
  }
}

function readItem(r: ArgReader): Item {
  const t = r.next()!;
  if (t.kind !== 'word' && t.kind !== 'string') throw new ModuleArgError(`unexpected "${t.value}"`);
  let type: SliceType = { kind: 'array' };
  let rangeText = t.value;
  if (r.peek()?.kind === 'lparen') {
    const found = typeOf(t.value);
    if (!found) throw new ModuleArgError(`unknown type "${t.value}" (types: ${TYPES})`);
    type = found;
    r.next();
    rangeText = r.value(`slice inside ${t.value}()`);
    if (r.next()?.kind !== 'rparen') throw new ModuleArgError(`missing ")" after ${t.value}(${rangeText}`);
  }
  const range = parseRange(rangeText);
  const item: Item = { ...range, type, name: range.source === 'DATA' ? 'slice' : range.source };
  for (let more = true; more;) {
    more = false;
    const p = r.peek();
    if (p?.kind === 'op' && !item.filter) {
      if (!isFilterOp(p.value)) throw new ModuleArgError(`invalid filter operator "${p.value}"`);
      r.next();
      item.filter = { op: p.value, value: r.value(`value after ${p.value}`) };
      const ok = 'size' in type ? NUMERIC_OPS : EQUALITY_OPS;
      if (!ok.includes(p.value)) throw new ModuleArgError(`operator ${p.value} is not supported on ${t.value === rangeText ? 'bytes' : t.value} (supported: ${ok.join(' ')})`);
      if (type.kind === 'IPv4' || type.kind === 'IPv6') checkIpFilter(item.filter.value, type.kind);
      more = true;
    } else if (p?.kind === 'word' && p.value === 'as') {
      r.next();
      item.name = r.value('name after "as"');
      more = true;
    }
  }
  return item;
}

export const sliceModule: ModuleDef = {
  name: 'slice',
  info:
    'Extract bytes of the entry data ([start:end]) or of an enumerated value (EV[start:end]) at Go-style offsets (negative ones count from the end), optionally cast: ' +
    `${TYPES} (little-endian unless "be"). Filters: numbers == != < <= > >=, the others == != ~ !~ (IPv4/IPv6 ~ a CIDR tests membership). ` +
    'Offsets outside the value, or too few bytes for the type, give no value (a positive filter then drops the entry); 64-bit integers beyond 2^53 are written as their exact digits. ' +
    'The name is the EV sliced ("slice" for the data) unless "as" gives one. One entry gets at most 16 MiB of slices (a warning names the cut)',
  examples: [
    'slice uint16be(data[0:2]) as RPM',
    'slice [0:4] as foo',
    'slice uint16le(Payload[9:11]) as value',
    'slice uint16be(Payload[-2:]) as value',
    'slice IPv4(Payload[12:16])~10.0.0.0/8 as src',
  ],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    readFlags(r, {});
    const items: Item[] = [];
    while (!r.done) items.push(readItem(r));
    if (items.length === 0) throw new ModuleArgError('missing slice, e.g. slice uint16be(data[0:2]) as RPM');
    return {
      produced: items.map((i) => i.name),
      consumed: [...new Set(items.map((i) => i.source).filter((s) => s !== 'DATA'))],
      process(e: Entry, rt: RuntimeContext) {
        let built = 0;
        const values = items.map((it, k) => {
          const v = readValue(e, it.source, rt);
          const b = v === undefined ? undefined : sliceBytes(valueBytes(v), it.start, it.end);
          if (b === undefined) return undefined;
          built += b.length;
          if (built > MAX_BUILT_VALUE && k > 0) {
            addWarning(rt, `slice: the values for an entry would pass ${MAX_BUILT_VALUE / 1024 / 1024} MiB; the later ones were left out`);
            return undefined;
          }
          return castBytes(b, it.type);
        });
        for (let i = 0; i < items.length; i++) {
          const f = items[i].filter;
          const v = values[i];
          if (!f) continue;
          if (v === undefined) {
            if (f.op !== '!=' && f.op !== '!~') return false;
          } else if (!(items[i].type.kind === 'IPv4' || items[i].type.kind === 'IPv6' ? testIpFilter(f, v) : testFilter(f, v))) return false;
        }
        items.forEach((it, i) => {
          if (values[i] !== undefined) e.evs.set(it.name, values[i]);
        });
        return true;
      },
    };
  },
};
