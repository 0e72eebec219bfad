/**
 * Best-effort parsing of one syslog record, RFC 5424 or RFC 3164 (BSD), left to right: what can
 * be read is returned, the rest is absent. One pass, no regular expression over the message.
 */

export interface SyslogRecord {
  Priority?: number;
  Facility?: number;
  Severity?: number;
  Version?: number;
  Timestamp?: string;
  Hostname?: string;
  Appname?: string;
  ProcID?: string;
  MsgID?: string;
  Message?: string;
  /** structured data elements in order: [id, params] */
  structured: Array<[string, Map<string, string>]>;
}

const MONTHS = new Set(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);

/** Reads `<PRI>` at the start; returns the offset after it, or 0. */
function readPri(s: string, rec: SyslogRecord): number {
  if (s.charCodeAt(0) !== 0x3c) return 0;
  const end = s.indexOf('>', 1);
  if (end < 2 || end > 4 || !/^\d+$/.test(s.slice(1, end))) return 0;
  const pri = Number(s.slice(1, end));
  if (pri > 191) return 0;
  rec.Priority = pri;
  rec.Facility = pri >> 3;
  rec.Severity = pri & 7;
  return end + 1;
}

/** The next space-delimited token from `at`: [token, offset after the following space]. */
function token(s: string, at: number): [string, number] | undefined {
  if (at >= s.length) return undefined;
  const sp = s.indexOf(' ', at);
  return sp < 0 ? [s.slice(at), s.length] : [s.slice(at, sp), sp + 1];
}

const nil = (v: string): string | undefined => (v === '-' || v === '' ? undefined : v);

export function parseSyslog(text: string): SyslogRecord {
  const rec: SyslogRecord = { structured: [] };
  const s = text.replace(/^[\s\uFEFF]+/, '');
  const at = readPri(s, rec);
  const v = /^(\d{1,3}) /.exec(s.slice(at, at + 4));
  if (at > 0 && v) parse5424(s, at + v[0].length, Number(v[1]), rec);
  else parse3164(s, at, rec);
  return rec;
}

function parse5424(s: string, at: number, version: number, rec: SyslogRecord): void {
  rec.Version = version;
  const fields = ['Timestamp', 'Hostname', 'Appname', 'ProcID', 'MsgID'] as const;
  for (const f of fields) {
    const t = token(s, at);
    if (!t) return;
    const value = nil(t[0]);
    if (value !== undefined) rec[f] = value;
    at = t[1];
  }
  if (at >= s.length) return;
  if (s[at] === '-') at += 1;
  else if (s[at] === '[') at = parseStructured(s, at, rec);
  else return;
  if (s[at] === ' ') at++;
  if (at < s.length) rec.Message = stripBom(s.slice(at));
}

function stripBom(m: string): string {
  return m.charCodeAt(0) === 0xfeff ? m.slice(1) : m;
}

/** `[id k="v" ...][id2 ...]`; returns the offset after the last `]` (or where parsing stopped). */
function parseStructured(s: string, at: number, rec: SyslogRecord): number {
  while (s[at] === '[') {
    let i = at + 1;
    let id = '';
    while (i < s.length && s[i] !== ' ' && s[i] !== ']') id += s[i++];
    const params = new Map<string, string>();
    while (s[i] === ' ') {
      i++;
      const eq = s.indexOf('=', i);
      if (eq < 0 || s[eq + 1] !== '"') return s.length;
      const name = s.slice(i, eq);
      let value = '';
      for (i = eq + 2; i < s.length && s[i] !== '"'; i++) {
        if (s[i] === '\\' && (s[i + 1] === '"' || s[i + 1] === '\\' || s[i + 1] === ']')) i++;
        value += s[i];
      }
      if (i >= s.length) return s.length;
      i++; // closing quote
      if (!params.has(name)) params.set(name, value);
    }
    if (s[i] !== ']') return s.length;
    rec.structured.push([id, params]);
    at = i + 1;
  }
  return at;
}

/**
 * RFC 3164: `Mmm dd hh:mm:ss HOST TAG[PID]: MSG`, also with an RFC 3339 timestamp instead (as
 * rsyslog writes). A token ending in `:` right after the time is the tag (no host).
 */
function parse3164(s: string, at: number, rec: SyslogRecord): void {
  const rest = s.slice(at);
  const bsd = /^([A-Z][a-z]{2}) ( ?\d{1,2}) (\d\d:\d\d:\d\d)(?: (\d{4}))? /.exec(rest);
  const iso = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)) /.exec(rest);
  if (bsd && MONTHS.has(bsd[1])) {
    rec.Timestamp = bsd[0].trimEnd();
    at += bsd[0].length;
  } else if (iso) {
    rec.Timestamp = iso[1];
    at += iso[0].length;
  } else {
    if (rest.length) rec.Message = rest;
    return;
  }
  let t = token(s, at);
  if (!t) return;
  if (!isTag(t[0])) {
    rec.Hostname = t[0];
    at = t[1];
    t = token(s, at);
    if (!t) return;
  }
  if (isTag(t[0])) {
    const tag = t[0].slice(0, -1);
    const lb = tag.indexOf('[');
    if (lb > 0 && tag.endsWith(']')) {
      rec.Appname = tag.slice(0, lb);
      rec.ProcID = tag.slice(lb + 1, -1);
    } else {
      rec.Appname = tag;
    }
    at = t[1];
  }
  if (at < s.length) rec.Message = s.slice(at);
}

/** `app:` or `app[123]:` (at most 48 characters before the colon: RFC 3164 says 32). */
function isTag(t: string): boolean {
  return t.length > 1 && t.length <= 49 && t.endsWith(':');
}
