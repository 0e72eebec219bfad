/** IP addresses as 16 bytes (IPv4 as IPv4-mapped IPv6), prefixes and formatting, for `subnet` and `src`. */
import { isIP } from 'node:net';

export interface IpAddr {
  version: 4 | 6;
  /** 16 bytes; IPv4 is ::ffff:a.b.c.d */
  bytes: Uint8Array;
}

function v4Bytes(s: string): number[] {
  return s.split('.').map(Number);
}

/** Parses an IPv4 or IPv6 address (an IPv6 zone `%eth0` is dropped); undefined if it is not one. */
export function parseIp(text: string): IpAddr | undefined {
  const s = text.trim();
  const pct = s.indexOf('%');
  const addr = pct >= 0 ? s.slice(0, pct) : s;
  const kind = isIP(addr);
  const bytes = new Uint8Array(16);
  if (kind === 4) {
    bytes[10] = 0xff;
    bytes[11] = 0xff;
    bytes.set(v4Bytes(addr), 12);
    return { version: 4, bytes };
  }
  if (kind !== 6) return undefined;
  let head = addr;
  let tail4: number[] = [];
  const lastColon = addr.lastIndexOf(':');
  if (addr.slice(lastColon + 1).includes('.')) {
    tail4 = v4Bytes(addr.slice(lastColon + 1));
    head = addr.slice(0, lastColon + 1) + '0:0';
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const l = left ? left.split(':') : [];
  const r = right ? right.split(':') : [];
  const groups = right === undefined ? l : [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  });
  if (tail4.length) bytes.set(tail4, 12);
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return { version: mapped ? 4 : 6, bytes };
}

/** The address with every bit after the first `bits` (of 128) cleared. */
export function maskBytes(bytes: Uint8Array, bits: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < 16; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    out[i] &= (0xff << (8 - keep)) & 0xff;
  }
  return out;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 16; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Dotted quad for IPv4, RFC 5952 text for IPv6 (longest zero run shortened to `::`). */
export function formatIp(a: IpAddr): string {
  const b = a.bytes;
  if (a.version === 4) return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  const g = Array.from({ length: 8 }, (_, i) => (b[i * 2] << 8) | b[i * 2 + 1]);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}
