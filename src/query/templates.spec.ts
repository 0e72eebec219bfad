import fc from 'fast-check';
import { AppError } from '../common/errors/app-error';
import { describeQuery } from './describe';
import { ALL, RANGE } from './fixtures.spec-helper';
import { runQueryInMemory } from './memory';
import { fillTemplate, placeholdersIn, TEMPLATE_MAX_QUERY_CHARS, TemplateVariable } from './templates';

const v = (name: string, more: Partial<TemplateVariable> = {}): TemplateVariable => ({
  name,
  label: '',
  description: '',
  required: false,
  defaultValue: '',
  previewValue: null,
  ...more,
});

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return `${(e as AppError).status} ${(e as AppError).code} ${(e as AppError).message}`;
  }
  throw new Error('filled');
}

describe('template filling', () => {
  it('a template with values gives the same description and results as the query written out by hand', () => {
    const cases: Array<[string, TemplateVariable[], Record<string, string>, string]> = [
      [
        'tag=app json user status | grep %%USER%% | count by status | table status count',
        [v('%%USER%%')],
        { '%%USER%%': 'alice' },
        'tag=app json user status | grep alice | count by status | table status count',
      ],
      ['tag=%%TAG%% kv level user | count by %%BY%%', [v('%%TAG%%'), v('%%BY%%', { defaultValue: 'level' })], { '%%TAG%%': 'syslog' }, 'tag=syslog kv level user | count by level'],
      ['tag=app json user | grep __IP__ | count', [v('__IP__', { required: true })], { __IP__: 'bob' }, 'tag=app json user | grep bob | count'],
      // raw text: a value may add modules, as typing it would
      [
        'tag=app json user status | %%FILTER%% | count by user',
        [v('%%FILTER%%')],
        { '%%FILTER%%': 'grep alice | grep 200' },
        'tag=app json user status | grep alice | grep 200 | count by user',
      ],
      // an optional variable without value or default disappears
      ['tag=app %%EXTRA%% json user | count by user', [v('%%EXTRA%%')], {}, 'tag=app  json user | count by user'],
    ];
    for (const [query, vars, values, byHand] of cases) {
      const filled = fillTemplate(query, vars, values);
      expect(filled).toBe(byHand);
      expect(describeQuery(filled)).toEqual(describeQuery(byHand));
      expect(runQueryInMemory(filled, ALL, { ...RANGE }).result).toEqual(runQueryInMemory(byHand, ALL, { ...RANGE }).result);
    }
  });

  it('replaces in one pass: a value is not searched for other names; the longest name wins where names overlap', () => {
    expect(fillTemplate('%%A%% %%B%%', [v('%%A%%'), v('%%B%%')], { '%%A%%': '%%B%%', '%%B%%': 'b' })).toBe('%%B%% b');
    expect(fillTemplate('%%A%%%% %%A%%', [v('%%A%%'), v('%%A%%%%')], { '%%A%%': 'x', '%%A%%%%': 'y' })).toBe('y x');
    expect(fillTemplate('a.b a+b $1', [v('a.b'), v('$1')], { 'a.b': 'X', $1: '$&' })).toBe('X a+b $&');
  });

  it('refuses a required variable left empty, an unknown name and a result that is too long, naming them', () => {
    const vars = [v('%%IP%%', { required: true, label: 'IP address' })];
    expect(refusal(() => fillTemplate('grep %%IP%%', vars, {}))).toBe('400 TEMPLATE_VARIABLE_REQUIRED The template variable %%IP%% (IP address) is required: give it a value');
    expect(refusal(() => fillTemplate('grep %%IP%%', vars, { '%%IP%%': '  ' }))).toContain('TEMPLATE_VARIABLE_REQUIRED');
    expect(fillTemplate('grep %%IP%%', [v('%%IP%%', { required: true, defaultValue: '10.0.0.1' })], {})).toBe('grep 10.0.0.1');
    expect(refusal(() => fillTemplate('grep %%IP%%', vars, { '%%IP%%': 'x', '%%IQ%%': 'y' }))).toBe('400 TEMPLATE_VARIABLE_UNKNOWN The template has no variable named %%IQ%%');
    const flood = '%%A%%'.repeat(13_000);
    const started = Date.now();
    expect(refusal(() => fillTemplate(flood, [v('%%A%%')], { '%%A%%': 'x'.repeat(4096) }))).toBe(
      `400 TEMPLATE_QUERY_TOO_LONG The query with its variables filled in is longer than ${TEMPLATE_MAX_QUERY_CHARS} characters`,
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('property: filling equals substituting each placeholder by hand, whatever the values', () => {
    const names = ['%%A%%', '%%B%%', '%%LONG_NAME%%'];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 6 })), { maxLength: 12 }),
        fc.array(fc.string({ maxLength: 8 }), { minLength: 3, maxLength: 3 }),
        (pieces, vals) => {
          // text pieces never contain a name by accident: drop any that do
          const parts = pieces.filter((p) => names.includes(p) || !p.includes('%%'));
          const query = parts.join(' ');
          const values = Object.fromEntries(names.map((n, i) => [n, vals[i]]));
          const byHand = parts.map((p) => (names.includes(p) ? values[p] : p)).join(' ');
          expect(
            fillTemplate(
              query,
              names.map((n) => v(n)),
              values,
            ),
          ).toBe(byHand);
        },
      ),
    );
  });

  it('finds the %%NAME%% placeholders of a query once each, in order', () => {
    expect(placeholdersIn('tag=x grep %%IP%% | %%B%% %%IP%% %% x %%')).toEqual(['%%IP%%', '%%B%%']);
  });
});
