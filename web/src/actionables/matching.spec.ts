import { describe, expect, it } from '@jest/globals';
import { Actionable, ActionableAction } from '../api/types';
import { actionTarget, compileActionables, searchTarget, compilePattern, MAX_SEGMENTS, MAX_VALUE_CHARS, menusOf, offersFor, segmentsOf, substitute } from './matching';

const action = (over: Partial<ActionableAction> & { command: ActionableAction['command'] }): ActionableAction => ({ name: 'a', description: null, placeholder: null, ...over });
const query = (reference: string) => action({ command: { type: 'query', reference, options: {} } });

let seq = 0;
const actionable = (name: string, triggers: Array<string | { pattern: string; hyperlink?: boolean; disabled?: boolean }>, over: Partial<Actionable> = {}): Actionable => ({
  GUID: `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`,
  ThingUUID: `10000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  UID: 1,
  GIDs: null,
  Global: false,
  WriteAccess: { Global: false, GIDs: [] },
  Name: name,
  Description: '',
  Updated: '2026-01-01T00:00:00Z',
  Labels: null,
  Disabled: false,
  Can: { Delete: true, Modify: true, Share: true },
  Contents: {
    menuLabel: null,
    actions: [query('tag=* grep _VALUE_')],
    triggers: triggers.map((t) => (typeof t === 'string' ? { pattern: t, hyperlink: true, disabled: false } : { hyperlink: true, disabled: false, ...t })),
  },
  ...over,
});

const IP = '/\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b/g';

describe('actionable matching', () => {
  it("compiles the product's literals and plain patterns; leaves out what JavaScript cannot run, disabled triggers and actionables, and actionables without actions", () => {
    expect(compilePattern(IP)?.test('x 10.0.0.1 y')).toBe(true);
    expect(compilePattern('/ABC/i')?.flags).toBe('gi');
    expect(compilePattern('(?i)abc')).toBeUndefined(); // RE2's inline flag: not JavaScript as written
    expect(compilePattern('[[:alpha:]]+')).toBeDefined(); // means something else in JavaScript, but runs
    const list = compileActionables([
      actionable('ip', [IP, '(?i)x']),
      actionable('off', [IP], { Disabled: true }),
      actionable('none', [{ pattern: IP, disabled: true }]),
      actionable('no actions', [IP], { Contents: { menuLabel: null, actions: [], triggers: [{ pattern: IP, hyperlink: true, disabled: false }] } }),
      actionable('broken', ['(?i)only']),
    ]);
    expect(list.map((c) => [c.actionable.Name, c.triggers.length])).toEqual([['ip', 1]]);
  });

  it('offers the actionables whose triggers match a value, once each, with the first capture group as the value', () => {
    const list = compileActionables([
      actionable('IP address', [IP]),
      actionable('color', ['The color is (?<color>\\w+)', 'The sky is (?<color>\\w+)']),
      actionable('selection only', [{ pattern: '\\d+', hyperlink: false }]),
    ]);
    expect(offersFor(list, 'from 10.1.2.3 to 10.9.9.9').map((o) => [o.compiled.actionable.Name, o.value])).toEqual([['IP address', '10.1.2.3']]);
    expect(offersFor(list, 'The sky is blue').map((o) => o.value)).toEqual(['blue']);
    expect(offersFor(list, 'port 22')).toEqual([]);
    expect(offersFor(list, 'port 22', true).map((o) => [o.compiled.actionable.Name, o.value])).toEqual([['selection only', '22']]);
  });

  it('cuts a value where triggers match it; the earliest, then the longest match wins; actionables on one stretch are offered together', () => {
    const list = compileActionables([actionable('IP', [IP]), actionable('IP too', [IP]), actionable('host', ['\\bhost-\\w+'])]);
    const segs = segmentsOf(list, 'host-a said 10.0.0.1 and 10.0.0.22.');
    expect(segs.map((s) => [s.text, (s.offers ?? []).map((o) => o.compiled.actionable.Name)])).toEqual([
      ['host-a', ['host']],
      [' said ', []],
      ['10.0.0.1', ['IP', 'IP too']],
      [' and ', []],
      ['10.0.0.22', ['IP', 'IP too']],
      ['.', []],
    ]);
    expect(segs.map((s) => s.text).join('')).toBe('host-a said 10.0.0.1 and 10.0.0.22.');
    expect(segmentsOf([], 'anything')).toEqual([{ text: 'anything' }]);
    expect(segmentsOf(list, 'nothing here')).toEqual([{ text: 'nothing here' }]);
  });

  it('bounds the work on one value: its first characters only, a limited number of matches, empty matches skipped', () => {
    const list = compileActionables([actionable('digit', ['\\d']), actionable('empty', ['x*'])]);
    const long = `${'1'.repeat(MAX_VALUE_CHARS + 500)}`;
    const segs = segmentsOf(list, long);
    expect(segs.filter((s) => s.offers).length).toBe(MAX_SEGMENTS);
    expect(segs.map((s) => s.text).join('')).toBe(long);
    expect(offersFor(list, `${'a'.repeat(MAX_VALUE_CHARS)}9`)).toEqual([]);
    expect(offersFor(list, 'xx').map((o) => o.compiled.actionable.Name)).toEqual(['empty']);
  });

  it('groups offers by menu label, else by the first 20 characters of the name', () => {
    const list = compileActionables([
      actionable('A very long actionable name', ['x']),
      actionable('dns 1', ['x'], { Contents: { menuLabel: 'DNS', actions: [query('q')], triggers: [{ pattern: 'x', hyperlink: true, disabled: false }] } }),
      actionable('dns 2', ['x'], { Contents: { menuLabel: 'DNS', actions: [query('q')], triggers: [{ pattern: 'x', hyperlink: true, disabled: false }] } }),
    ]);
    expect(menusOf(offersFor(list, 'x')).map((m) => [m.menu, m.offers.length])).toEqual([
      ['A very long actionab', 1],
      ['DNS', 2],
    ]);
  });
});

describe('running an action', () => {
  const range = { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00.000Z' };

  it('a query action opens the search with every _VALUE_ replaced, over the range of the search the value came from, run from a link', () => {
    const t = actionTarget(query('tag=netflow netflow Src==_VALUE_ | table _VALUE_'), '10.0.0.1', range);
    expect(t).toEqual({
      kind: 'search',
      query: 'tag=netflow netflow Src==10.0.0.1 | table 10.0.0.1',
      href: `/search?q=${encodeURIComponent('tag=netflow netflow Src==10.0.0.1 | table 10.0.0.1').replace(/%20/g, '+')}&from=2026-03-01T10%3A00%3A00.000Z&to=2026-03-01T11%3A00%3A00.000Z&run=1`,
    });
    const own = actionTarget(action({ placeholder: '@@', command: { type: 'query', reference: 'grep @@ _VALUE_', options: {} } }), '$&x');
    expect(own).toMatchObject({ query: 'grep $&x _VALUE_' }); // plain text, no replacement patterns
    expect(new URLSearchParams((own as { href: string }).href.split('?')[1]).get('from')).toBeNull();
  });

  it('a url action puts the value in URL-encoded, unless told not to; only http(s) addresses open', () => {
    const url = (reference: string, over: Partial<ActionableAction> = {}) => action({ ...over, command: { type: 'url', reference, options: {} } });
    expect(actionTarget(url('https://www.whois.com/whois/_VALUE_'), 'a b/c?d&e')).toEqual({ kind: 'url', href: 'https://www.whois.com/whois/a%20b%2Fc%3Fd%26e' });
    expect(actionTarget(url('https://x.test/_VALUE_', { noValueUrlEncode: true }), 'a/b')).toEqual({ kind: 'url', href: 'https://x.test/a/b' });
    expect(actionTarget(action({ command: { type: 'url', reference: 'https://x.test/?q=_VALUE_', options: { noValueUrlEncode: true } } }), 'a b')).toEqual({
      kind: 'url',
      href: 'https://x.test/?q=a b',
    });
    expect(actionTarget(url('_VALUE_', { noValueUrlEncode: true }), 'javascript:alert(1)')).toMatchObject({ kind: 'unavailable' });
  });

  it('time variables: _START_ and _END_ (or their own placeholders) as Unix seconds or RFC 3339', () => {
    const a = action({
      start: { type: 'timestamp', format: null, placeholder: null },
      end: { type: 'string', format: null, placeholder: '%E%' },
      command: { type: 'url', reference: 'https://x.test/?v=_VALUE_&from=_START_&to=%E%', options: {} },
    });
    expect(actionTarget(a, 'v', range)).toEqual({ kind: 'url', href: 'https://x.test/?v=v&from=1772359200&to=2026-03-01T11%3A00%3A00.000Z' });
    expect(actionTarget(a, 'v')).toEqual({ kind: 'url', href: 'https://x.test/?v=v&from=_START_&to=%E%' });
  });

  it('a dashboard action opens the dashboard its GUID names; a saved query is read by its GUID, then searched as a query; a template is filled by its GUID with the value as its variable', () => {
    const guid = '6f1e6c5e-1d1b-4c41-9d7e-3c3f2b2a1a10';
    expect(actionTarget(action({ command: { type: 'dashboard', reference: guid, options: {} } }), 'x')).toEqual({ kind: 'dashboard', href: `/dashboards/${guid}` });
    expect(actionTarget(action({ command: { type: 'template', reference: guid, options: {} } }), 'x')).toEqual({ kind: 'template', guid });
    expect(actionTarget(action({ command: { type: 'template', reference: guid, options: { variable: '%%IP%%' } } }), 'x')).toEqual({ kind: 'template', guid, variable: '%%IP%%' });
    const saved = action({ command: { type: 'savedQuery', reference: guid, options: {} } });
    expect(actionTarget(saved, 'x')).toEqual({ kind: 'savedQuery', guid });
    expect(searchTarget('tag=dns grep _VALUE_', saved, 'example.com', range)).toMatchObject({ kind: 'search', query: 'tag=dns grep example.com' });
    expect(substitute('a_VALUE_b_VALUE_', '_VALUE_', 'x')).toBe('axbx');
  });
});
