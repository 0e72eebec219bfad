/** IP addresses for eval: parsing, printing (Go style), ordering and CIDR membership. */
import { isIPv4, isIPv6 } from 'node:net';
import { IpV } from './value';

function v4Bytes(s: string): Uint8Array {
  return Uint8Array.from(s.split('.').map(Number));
}

function v6Bytes(s: string): Uint8Array {
  let text = s;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const v4 = v4Bytes(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const parse = (p: string) => (p === '' ? [] : p.split(':').map((g) => parseInt(g, 16)));
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const a = parse(head);
  const b = rest === undefined ? [] : parse(rest);
  const groups = rest === undefined ? a : [...a, ...new Array<number>(8 - a.length - b.length).fill(0), ...b];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 255;
  });
  return out;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255];

function isMapped(b: Uint8Array): boolean {
  return b.length === 16 && MAPPED_PREFIX.every((x, i) => b[i] === x);
}

/** Parses an IPv4 or IPv6 address (no zone); IPv4-mapped IPv6 addresses become IPv4. */
export function parseIp(s: string): IpV | null {
  const t = s.trim();
  if (isIPv4(t)) return { k: 'ip', b: v4Bytes(t) };
  if (!isIPv6(t) || t.includes('%')) return null;
  const b = v6Bytes(t);
  return { k: 'ip', b: isMapped(b) ? b.slice(12) : b };
}

export function formatIp(ip: IpV): string {
  const b = ip.b;
  if (b.length === 4) return b.join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[i] << 8) | b[i + 1]);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

function as16(b: Uint8Array): Uint8Array {
  if (b.length === 16) return b;
  const out = new Uint8Array(16);
  out.set(MAPPED_PREFIX);
  out.set(b, 12);
  return out;
}

export function compareIp(a: IpV, b: IpV): number {
  const x = as16(a.b);
  const y = as16(b.b);
  for (let i = 0; i < 16; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** True when `ip` is inside `cidr` ("10.0.0.0/8", "fe80::/10"); null for a malformed CIDR. */
export function ipInCidr(ip: IpV, cidr: string): boolean | null {
  const slash = cidr.indexOf('/');
  if (slash < 0) return null;
  const net = parseIp(cidr.slice(0, slash));
  const bits = Number(cidr.slice(slash + 1));
  if (!net || !/^\d+$/.test(cidr.slice(slash + 1)) || bits > net.b.length * 8) return null;
  if (ip.b.length !== net.b.length) return false;
  for (let i = 0; i < bits; i++) {
    const mask = 128 >> (i % 8);
    if ((ip.b[i >> 3] & mask) !== (net.b[i >> 3] & mask)) return false;
  }
  return true;
}
