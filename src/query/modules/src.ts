/** `src op value ...`: filter on the entry source (== != with an IP, an integer, 0x hex or a 32-digit hash; ~ !~ with a subnet). */
import { ArgReader } from '../args';
import { FilterOp } from '../filter';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';
import { maskBytes, parseIp, sameBytes } from './ip-addr';

interface Condition {
  op: FilterOp;
  bytes: Uint8Array;
  /** prefix length over the 128 bits (subnets) */
  bits: number;
  text: string;
}

/** 16 bytes, big-endian, of a non-negative integer below 2^128. */
function intBytes(n: bigint): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 15; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

/** A source value as 16 bytes: an IP, `0x` hex, a 32-digit hex hash, or a decimal integer. */
function sourceBytes(text: string): Uint8Array | undefined {
  const ip = parseIp(text);
  if (ip) return ip.bytes;
  if (/^0[xX][0-9a-fA-F]{1,32}$/.test(text)) return intBytes(BigInt(text));
  if (/^[0-9a-fA-F]{32}$/.test(text) && /[a-fA-F]/.test(text)) return intBytes(BigInt(`0x${text}`));
  // all digits: a decimal integer (a 32-digit hash without letters reads as one too)
  if (/^\d{1,39}$/.test(text) && BigInt(text) < 1n << 128n) return intBytes(BigInt(text));
  return undefined;
}

function parseCondition(op: FilterOp, text: string): Condition {
  if (op === '~' || op === '!~') {
    const slash = text.indexOf('/');
    const ip = parseIp(slash < 0 ? text : text.slice(0, slash));
    const bits = slash < 0 ? undefined : Number(text.slice(slash + 1));
    const max = ip?.version === 4 ? 32 : 128;
    if (!ip || (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= max && /^\d+$/.test(text.slice(slash + 1))))) {
      throw new ModuleArgError(`invalid subnet "${text}" for ${op} (e.g. 192.168.1.0/24)`);
    }
    const b = bits ?? max;
    const total = ip.version === 4 ? 96 + b : b;
    return { op, bytes: maskBytes(ip.bytes, total), bits: total, text };
  }
  if (op !== '==' && op !== '!=') throw new ModuleArgError(`operator ${op} is not supported (use == != ~ !~)`);
  const bytes = sourceBytes(text);
  if (!bytes) throw new ModuleArgError(`invalid source "${text}" (an IP, an integer, 0x hex or a 32-digit hex hash)`);
  return { op, bytes, bits: 128, text };
}

export const srcModule: ModuleDef = {
  name: 'src',
  info: 'Filter entries on their source: == and != an IP, integer, 0x hex integer or 32-digit hex hash; ~ and !~ a subnet (CIDR); several conditions must all hold',
  examples: ['src != 192.168.1.1', 'src ~ 192.168.1.0/24', 'src !~ 192.168.0.0/16', 'src == 1', 'src == 1234567890ABCDEF0011223344556677'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    readFlags(r, {});
    const conds: Condition[] = [];
    while (!r.done) {
      const t = r.next()!;
      if (t.kind !== 'op') throw new ModuleArgError(`expected an operator (== != ~ !~) before "${t.value}"`);
      conds.push(parseCondition(t.value as FilterOp, r.value(`value after ${t.value}`)));
    }
    if (conds.length === 0) throw new ModuleArgError('missing condition (e.g. src == 10.0.0.1, src ~ 10.0.0.0/8)');
    let lastSrc: string | undefined;
    let lastBytes: Uint8Array | undefined;
    return {
      produced: [],
      consumed: [],
      process(e) {
        // runs of entries share a source: parse it once
        if (e.src !== lastSrc) {
          lastSrc = e.src;
          lastBytes = sourceBytes(e.src);
        }
        const own = lastBytes;
        return conds.every((c) => {
          const hit = own !== undefined && sameBytes(c.bits === 128 ? own : maskBytes(own, c.bits), c.bytes);
          return c.op === '==' || c.op === '~' ? hit : !hit;
        });
      },
    };
  },
};
