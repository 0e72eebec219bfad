/** `syslog [-e EV] Field [op value] [as name] ...`: RFC 5424 and RFC 3164 fields. */
import { ArgReader, ExtractItem, readExtractItems } from '../args';
import { FilterOp, testFilter } from '../filter';
import { Token } from '../lexer';
import { EVValue, ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { checkOps, consumedOf, isNegativeOp, optionalString, readFlags, requireItems, sourceText, storeExtracted } from './extract-common';
import { parseSyslog, SyslogRecord } from './syslog-parse';

const NUMERIC = ['Facility', 'Severity', 'Priority', 'Version'] as const;
const STRINGS = ['Timestamp', 'Hostname', 'Appname', 'ProcID', 'MsgID', 'Message'] as const;
const NUMERIC_OPS: readonly FilterOp[] = ['==', '!=', '<', '>', '<=', '>='];
const STRING_OPS: readonly FilterOp[] = ['==', '!='];

type PlainName = (typeof NUMERIC)[number] | (typeof STRINGS)[number];
type Field = { kind: 'plain'; name: PlainName } | { kind: 'sdid' } | { kind: 'sd'; id?: string; key: string };

/** `Hostname`, `StructuredID`, `Structured.key`, `Structured[id].key`. */
function parseField(src: string): Field {
  if ((NUMERIC as readonly string[]).includes(src) || (STRINGS as readonly string[]).includes(src)) return { kind: 'plain', name: src as PlainName };
  if (src === 'StructuredID') return { kind: 'sdid' };
  const m = /^Structured(?:\[([^\]]+)\])?\.(.+)$/.exec(src);
  if (m) return { kind: 'sd', id: m[1], key: m[2] };
  throw new ModuleArgError(`unknown field "${src}" (fields: ${[...NUMERIC, ...STRINGS, 'StructuredID', 'Structured.key', 'Structured[id].key'].join(', ')})`);
}

function defaultName(src: string): string {
  const f = parseField(src);
  return f.kind === 'sd' ? f.key : src;
}

function read(rec: SyslogRecord, f: Field): EVValue | undefined {
  if (f.kind === 'plain') return rec[f.name];
  if (f.kind === 'sdid') return rec.structured[0]?.[0];
  for (const [id, params] of rec.structured) {
    if (f.id !== undefined && id !== f.id) continue;
    const v = params.get(f.key);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** StructuredID filters look at every section: `==` passes when one matches, `!=` drops when one matches. */
function structuredIdPasses(rec: SyslogRecord, op: FilterOp, value: string): boolean {
  const ids = rec.structured.map(([id]) => id);
  if (ids.length === 0) return isNegativeOp(op);
  const hit = ids.some((id) => testFilter({ op: '==', value }, id));
  return op === '==' ? hit : !hit;
}

export const syslogModule: ModuleDef = {
  name: 'syslog',
  info: 'Extract RFC 5424 and RFC 3164 syslog fields: Facility Severity Priority Version (numeric filters) Timestamp Hostname Appname ProcID MsgID Message StructuredID Structured.key Structured[id].key (== !=)',
  examples: ['syslog Appname Hostname', 'syslog Severity<3 Appname!="dhclient"', 'syslog StructuredID Structured[ex@32473].foo as foo', 'syslog -e msg Message'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value' });
    const ev = optionalString(flags.e);
    const items = requireItems(readExtractItems(r, defaultName), 'field');
    checkOps(items, (it) => ((NUMERIC as readonly string[]).includes(it.source) ? NUMERIC_OPS : STRING_OPS));
    // StructuredID filters are checked against every section, apart from the extraction
    const sdidItems = items.filter((it) => it.filter && it.source === 'StructuredID');
    const stored = items.map((it) => (sdidItems.includes(it) ? { ...it, filter: undefined } : it));
    const fields = new Map<ExtractItem, Field>(stored.map((it) => [it, parseField(it.source)]));
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const rec = text === undefined ? { structured: [] } : parseSyslog(text);
        for (const it of sdidItems) if (!structuredIdPasses(rec, it.filter!.op, it.filter!.value)) return false;
        return storeExtracted(e, stored, (it) => read(rec, fields.get(it)!));
      },
    };
  },
};
