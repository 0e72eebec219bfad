import { describe, expect, it } from '@jest/globals';
import { catastrophicPart, patternProblem, triggerSource, wideRepetitions } from './trigger-pattern';

describe('actionable trigger patterns', () => {
  it('reads a JavaScript literal as its body and flags, anything else as the pattern', () => {
    expect(triggerSource('/\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b/g')).toEqual({ body: '\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b', flags: 'g' });
    expect(triggerSource('a/b')).toEqual({ body: 'a/b', flags: '' });
    expect(triggerSource('//')).toEqual({ body: '//', flags: '' });
  });

  it('accepts what kits ship: IP addresses, named groups, domains, bounded repetition', () => {
    for (const p of [
      '/\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b/g',
      'The color is (?<color>.*)',
      '(?P<host>[a-z0-9-]+(?:\\.[a-z0-9-]+)+)',
      '(?:[a-z0-9-]+\\.)+[a-z]{2,}',
      '/^[0-9a-f]{32}$/i',
      '(GET|POST|PUT)+',
      '[]a]+x',
      '\\Q(a+)+\\E',
    ]) {
      expect([p, patternProblem(p)]).toEqual([p, undefined]);
    }
  });

  it('refuses what RE2 refuses, worded as RE2 words it, the offset in the user text', () => {
    expect(patternProblem('[a-')).toEqual({ kind: 'syntax', message: 'missing closing ]: [a- at offset 0 of the expression' });
    expect(patternProblem('/x[a-/g')).toEqual({ kind: 'syntax', message: 'missing closing ]: [a- at offset 2 of the expression' });
    expect(patternProblem('/x[a-/gi')).toEqual({ kind: 'syntax', message: 'missing closing ]: [a- at offset 2 of the expression' });
    expect(patternProblem('a(?=b)')).toMatchObject({ kind: 'syntax' });
    expect(patternProblem('(a)\\1')).toMatchObject({ kind: 'syntax' });
  });

  it('refuses the repetitions a backtracking engine takes exponential time over', () => {
    const cases: Array<[string, string]> = [
      ['(a+)+$', '(a+)+'],
      ['^(a*)*b', '(a*)*'],
      ['x(?:.*)*y', '(?:.*)*'],
      ['(\\w+\\s?)+$', '(\\w+\\s?)+'],
      ['(a|a)*b', '(a|a)*'],
      ['(a|)+b', '(a|)+'],
      ['((ab)*)+c', '((ab)*)+'],
      ['(?:x(a+)+)y', '(a+)+'],
      ['(a+){2,}', '(a+){2,}'],
    ];
    for (const [p, part] of cases) expect([p, catastrophicPart(p)]).toEqual([p, part]);
    expect(patternProblem('/(a+)+$/')).toEqual({ kind: 'unsafe', part: '(a+)+' });
  });

  it('keeps what is linear for a backtracking engine', () => {
    for (const p of ['(a+){2}', '(?:[a-z]+\\.)+com', '(ab)+', 'a+b+', '(a|b)*c', '(?i)(foo)+']) expect([p, catastrophicPart(p)]).toEqual([p, undefined]);
  });

  it('counts the repetitions of any character, whose number is the power of the work on a failing value', () => {
    expect(wideRepetitions('.*a.*b')).toBe(2);
    expect(wideRepetitions('(?:x.+)?[\\s\\S]*y.{2,}z.?')).toBe(3);
    expect(wideRepetitions('(\\S+) (\\S+) (\\S+) (\\S+) [^,]*,[^,]*')).toBe(0);
    expect(patternProblem('.*a.*b.*c')).toBeUndefined();
    expect(patternProblem('.*a.*b.*c.*d')).toEqual({ kind: 'wide', count: 4 });
  });
});
