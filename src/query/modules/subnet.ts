/** `subnet [-4|-6] EV /N [as name] ...`: the network address of an IP under a prefix length (default name "subnet"). */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { evToString, getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';
import { formatIp, maskBytes, parseIp } from './ip-addr';

interface SubnetItem {
  source: string;
  bits: number;
  name: string;
}

function readItems(r: ArgReader, maxBits: number): SubnetItem[] {
  const items: SubnetItem[] = [];
  while (!r.done) {
    const t = r.next()!;
    if (t.kind === 'op') throw new ModuleArgError(`filters are not supported (unexpected "${t.value}")`);
    const source = t.value;
    const next = r.peek();
    if (next?.kind === 'op') throw new ModuleArgError(`filters are not supported (unexpected "${next.value}")`);
    const mask = r.value(`prefix length (/N) after ${source}`);
    const m = /^\/(\d{1,3})$/.exec(mask);
    if (!m || Number(m[1]) > maxBits) throw new ModuleArgError(`invalid prefix length "${mask}" for ${source} (expected /0 to /${maxBits})`);
    let name = 'subnet';
    if (r.accept('as')) name = r.value('name after "as"');
    items.push({ source, bits: Number(m[1]), name });
  }
  if (items.length === 0) throw new ModuleArgError('missing enumerated value and prefix length (e.g. subnet ip /16)');
  return items;
}

export const subnetModule: ModuleDef = {
  name: 'subnet',
  info: 'Write the subnet (network address) of an IP enumerated value under a prefix length into "subnet" (or the name after as); -4 IPv4 (default), -6 IPv6; other addresses are skipped',
  examples: ['subnet ip /16', 'subnet SrcIP /16 as srcsub DstIP /24 as dstsub', 'subnet -6 addr /64 as net'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    // `-4`/`-6` are not letters, which the shared flag reader expects
    const seen = new Set<string>();
    for (let t = r.peek(); t && t.kind === 'word' && (t.value === '-4' || t.value === '-6'); t = r.peek()) seen.add(r.next()!.value);
    readFlags(r, {});
    if (seen.size > 1) throw new ModuleArgError('-4 and -6 cannot be used together');
    const version = seen.has('-6') ? 6 : 4;
    const items = readItems(r, version === 4 ? 32 : 128);
    return {
      produced: [...new Set(items.map((it) => it.name))],
      consumed: [...new Set(items.map((it) => it.source))],
      process(e, rt) {
        for (const it of items) {
          const v = getEV(e, it.source, rt);
          const ip = v === undefined ? undefined : parseIp(evToString(v));
          if (!ip || ip.version !== version) continue;
          const bytes = maskBytes(ip.bytes, version === 4 ? 96 + it.bits : it.bits);
          e.evs.set(it.name, formatIp({ version, bytes }));
        }
        return true;
      },
    };
  },
};
