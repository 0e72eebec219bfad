import { describe, expect, it } from '@jest/globals';
import { blankVariable, queryPreview, variablesFromQuery } from './templates-api';

describe('templates in the console', () => {
  it('offers each %%NAME%% of a query once as a required variable, keeping those already described', () => {
    const known = [{ ...blankVariable('%%IP%%'), label: 'Address', defaultValue: '10.0.0.1' }];
    expect(variablesFromQuery('tag=x grep %%IP%% | %%SRC_PORT%% %%IP%% %%SRC_PORT%%', known)).toEqual([
      known[0],
      { name: '%%SRC_PORT%%', label: 'Src port', description: '', required: true, defaultValue: '', previewValue: null },
    ]);
    expect(variablesFromQuery('tag=x grep 100%')).toEqual([]);
  });

  it('shows a query on one line, cut', () => {
    expect(queryPreview('tag=a\n  grep b', 8)).toBe('tag=a g…');
  });
});
