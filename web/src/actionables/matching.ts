/**
 * Actionables at work in results (README "Actionables"): which values their triggers match, and
 * where running one of their actions goes. Pure functions, so that the cost is plain to see:
 *
 * - Patterns compile once per list of actionables (`compileActionables`); a pattern JavaScript
 *   cannot run as written (RE2's `(?i)`, `\z`, `[[:alpha:]]`…) is left out, never thrown at the view.
 * - A value is matched over its first `MAX_VALUE_CHARS` characters only, at most
 *   `MAX_SEGMENTS` matches are marked in one value, and the service refuses the patterns that a
 *   backtracking engine takes exponential time over, so marking a page of results stays cheap.
 */
import type { Actionable, ActionableAction } from '../api/types';

export const DEFAULT_PLACEHOLDER = '_VALUE_';
export const START_PLACEHOLDER = '_START_';
export const END_PLACEHOLDER = '_END_';
/** characters of a value that triggers look at */
export const MAX_VALUE_CHARS = 1024;
/** matches marked in one value */
export const MAX_SEGMENTS = 32;

export interface CompiledTrigger {
  re: RegExp;
  /** offered on a click (true), or only on selected text (false) */
  hyperlink: boolean;
}

export interface CompiledActionable {
  actionable: Actionable;
  /** the menu it shows under: its menu label, else the first 20 characters of its name (the product's rule) */
  menu: string;
  triggers: CompiledTrigger[];
}

/** `/body/flags` is a JavaScript literal (as the product's console stores them); anything else is the pattern itself. */
export function patternParts(pattern: string): { body: string; flags: string } {
  const m = /^\/([\s\S]+)\/([dgimsuyv]*)$/.exec(pattern);
  return m ? { body: m[1], flags: m[2] } : { body: pattern, flags: '' };
}

/** The trigger as a global RegExp, or undefined when JavaScript cannot run it as written. */
export function compilePattern(pattern: string): RegExp | undefined {
  const { body, flags } = patternParts(pattern);
  try {
    // g: find every match in a value; the literal's i, m, s, u, v keep their meaning; d and y do not matter here.
    return new RegExp(body, `g${flags.replace(/[gdy]/g, '')}`);
  } catch {
    return undefined;
  }
}

/** The enabled actionables with their runnable triggers, compiled once. */
export function compileActionables(list: readonly Actionable[]): CompiledActionable[] {
  const out: CompiledActionable[] = [];
  for (const a of list) {
    if (a.Disabled || !a.Contents.actions.length) continue;
    const triggers: CompiledTrigger[] = [];
    for (const t of a.Contents.triggers) {
      if (t.disabled) continue;
      const re = compilePattern(t.pattern);
      if (re) triggers.push({ re, hyperlink: t.hyperlink });
    }
    if (triggers.length) out.push({ actionable: a, menu: a.Contents.menuLabel?.trim() || a.Name.slice(0, 20), triggers });
  }
  return out;
}

/**
 * What `_VALUE_` becomes for one match: the first capture group that took part (the product's
 * "triggers can contain a capture group"), else the whole match.
 */
function matchedValue(m: RegExpExecArray): string {
  for (let i = 1; i < m.length; i++) if (m[i] !== undefined && m[i] !== '') return m[i];
  return m[0];
}

/** Every non-empty match of `re` in `text`, in order, bounded. */
function* matchesOf(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  let n = 0;
  while (n < MAX_SEGMENTS) {
    const m = re.exec(text);
    if (!m) return;
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    n++;
    yield m;
  }
}

/** An actionable offered for a value, with what its placeholder stands for. */
export interface Offer {
  compiled: CompiledActionable;
  value: string;
}

/**
 * The actionables whose triggers match `text` (a value clicked, or text selected: `selection`
 * also offers the triggers that act on selections only), each once, with the value of its first
 * match.
 */
export function offersFor(compiled: readonly CompiledActionable[], text: string, selection = false): Offer[] {
  const shown = text.slice(0, MAX_VALUE_CHARS);
  const offers: Offer[] = [];
  for (const c of compiled) {
    for (const t of c.triggers) {
      if (!t.hyperlink && !selection) continue;
      const first = matchesOf(t.re, shown).next();
      if (!first.done) {
        offers.push({ compiled: c, value: matchedValue(first.value) });
        break;
      }
    }
  }
  return offers;
}

/** A piece of a value: plain text, or a stretch some hyperlink trigger matches (`offers` not empty). */
export interface Segment {
  text: string;
  offers?: Offer[];
}

/**
 * `text` cut where hyperlink triggers match it, so that each matched stretch can be offered on its
 * own (an address inside a log line). Overlapping matches: the earliest wins, then the longest;
 * the actionables matching that same stretch are offered together.
 */
export function segmentsOf(compiled: readonly CompiledActionable[], text: string): Segment[] {
  if (!compiled.length || !text) return [{ text }];
  const shown = text.slice(0, MAX_VALUE_CHARS);
  const spans = new Map<string, { start: number; end: number; offers: Offer[] }>();
  for (const c of compiled) {
    const seen = new Set<string>();
    for (const t of c.triggers) {
      if (!t.hyperlink) continue;
      for (const m of matchesOf(t.re, shown)) {
        const key = `${m.index}:${m.index + m[0].length}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const span = spans.get(key) ?? { start: m.index, end: m.index + m[0].length, offers: [] };
        span.offers.push({ compiled: c, value: matchedValue(m) });
        spans.set(key, span);
      }
    }
  }
  if (!spans.size) return [{ text }];
  const ordered = [...spans.values()].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Segment[] = [];
  let at = 0;
  for (const s of ordered) {
    if (s.start < at || out.length >= 2 * MAX_SEGMENTS) continue;
    if (s.start > at) out.push({ text: text.slice(at, s.start) });
    out.push({ text: text.slice(s.start, s.end), offers: s.offers });
    at = s.end;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

/** Offers grouped under their menus (actionables with the same menu label or name share one), in first-seen order. */
export function menusOf(offers: readonly Offer[]): Array<{ menu: string; offers: Offer[] }> {
  const menus = new Map<string, Offer[]>();
  for (const o of offers) menus.set(o.compiled.menu, [...(menus.get(o.compiled.menu) ?? []), o]);
  return [...menus].map(([menu, list]) => ({ menu, offers: list }));
}

/** Every occurrence of `placeholder` in `template` replaced by `value` (no pattern characters: plain text). */
export const substitute = (template: string, placeholder: string, value: string): string => (placeholder ? template.split(placeholder).join(value) : template);

/** The time range of the search a value came from. */
export interface SourceRange {
  start: string;
  end: string;
}

type TimeVariable = NonNullable<ActionableAction['start']>;

/** A time as a time variable wants it: `timestamp`, Unix seconds; `string`, RFC 3339 (the format field is not read). */
function timeText(iso: string, v: TimeVariable): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  return v.type === 'timestamp' ? String(Math.floor(ms / 1000)) : new Date(ms).toISOString();
}

function withTimes(text: string, action: ActionableAction, range: SourceRange | undefined, encode: (s: string) => string): string {
  let out = text;
  if (range && action.start) out = substitute(out, action.start.placeholder || START_PLACEHOLDER, encode(timeText(range.start, action.start)));
  if (range && action.end) out = substitute(out, action.end.placeholder || END_PLACEHOLDER, encode(timeText(range.end, action.end)));
  return out;
}

/** Where an action goes: a page of the console (a search, a dashboard), an outside address, or why it cannot run here. */
export type ActionTarget =
  | { kind: 'search'; query: string; href: string }
  | { kind: 'dashboard'; href: string }
  | { kind: 'url'; href: string }
  /** a saved query: its text is read from the library (by GUID) before the search opens (`searchTarget`) */
  | { kind: 'savedQuery'; guid: string }
  /** a template (by GUID): the service fills `variable` (or the template's first) with the value, then the search opens */
  | { kind: 'template'; guid: string; variable?: string }
  | { kind: 'unavailable'; why: string };

/** The search of `template` with the value (and the time variables) in place, over `range`, run at once. */
export function searchTarget(template: string, action: ActionableAction, value: string, range?: SourceRange): { kind: 'search'; query: string; href: string } {
  const query = withTimes(substitute(template, action.placeholder || DEFAULT_PLACEHOLDER, value), action, range, (s) => s);
  const p = new URLSearchParams({ q: query });
  if (range && Number.isFinite(Date.parse(range.start)) && Number.isFinite(Date.parse(range.end))) {
    p.set('from', new Date(range.start).toISOString());
    p.set('to', new Date(range.end).toISOString());
  }
  p.set('run', '1');
  return { kind: 'search', query, href: `/search?${p.toString()}` };
}

/**
 * The target of running `action` on `value`: a query action opens the search with the value in
 * place of its placeholder, over the time range of the search the value came from; a url action
 * the address with the value URL-encoded (unless the action says not to); a dashboard action the
 * dashboard its GUID names; a saved-query action the search of the library entry its GUID names,
 * as a query action does; a template action the search of the template its GUID names, with the
 * value as its variable (the product: "using the matched text as the input variable").
 */
export function actionTarget(action: ActionableAction, value: string, range?: SourceRange): ActionTarget {
  const placeholder = action.placeholder || DEFAULT_PLACEHOLDER;
  const cmd = action.command;
  switch (cmd.type) {
    case 'query':
      return searchTarget(cmd.reference, action, value, range);
    case 'url': {
      const raw = action.noValueUrlEncode || cmd.options?.noValueUrlEncode;
      const href = withTimes(substitute(cmd.reference, placeholder, raw ? value : encodeURIComponent(value)), action, range, encodeURIComponent);
      // The service takes only http(s) addresses; a value spliced into the scheme could change it, so look again.
      if (!/^https?:\/\//i.test(href)) return { kind: 'unavailable', why: 'The link is not an http or https address.' };
      return { kind: 'url', href };
    }
    case 'dashboard':
      return { kind: 'dashboard', href: `/dashboards/${encodeURIComponent(cmd.reference)}` };
    case 'template': {
      const variable = cmd.options?.variable;
      return { kind: 'template', guid: cmd.reference, ...(typeof variable === 'string' && variable ? { variable } : {}) };
    }
    case 'savedQuery':
      return { kind: 'savedQuery', guid: cmd.reference };
    default:
      return { kind: 'unavailable', why: 'This console does not know this kind of action.' };
  }
}
