import { parseGoDuration } from './search.params';

describe('parseGoDuration', () => {
  it('reads Go durations in milliseconds', () => {
    expect(parseGoDuration('1h')).toBe(3_600_000);
    expect(parseGoDuration('1h30m')).toBe(5_400_000);
    expect(parseGoDuration('1.5s')).toBe(1500);
    expect(parseGoDuration('250ms')).toBe(250);
    for (const bad of ['', '1d', 'h', '-1h', '1 h']) expect(parseGoDuration(bad)).toBeNull();
  });
});
