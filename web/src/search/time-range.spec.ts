import { fromInputValue, toInputValue } from '../ui/time-format';
import { bucketWidth, rangeFromParams, rangeToParams, resolveRange } from './time-range';

describe('time ranges', () => {
  it('resolves presets against now and round-trips through the URL', () => {
    const now = new Date('2024-05-01T12:00:00Z');
    expect(resolveRange({ kind: 'relative', preset: '15m' }, now)).toEqual({ start: new Date('2024-05-01T11:45:00Z'), end: now });
    expect(resolveRange({ kind: 'relative', preset: '30d' }, now).start).toEqual(new Date('2024-04-01T12:00:00Z'));
    const p = new URLSearchParams();
    rangeToParams({ kind: 'absolute', start: new Date('2024-05-01T10:00:00Z'), end: now }, p);
    expect(p.toString()).toBe('from=2024-05-01T10%3A00%3A00.000Z&to=2024-05-01T12%3A00%3A00.000Z');
    expect(rangeFromParams(p, { kind: 'relative', preset: '1h' })).toEqual({ kind: 'absolute', start: new Date('2024-05-01T10:00:00Z'), end: now });
    expect(rangeFromParams(new URLSearchParams('from=2024-05-02&to=2024-05-01'), { kind: 'relative', preset: '1h' })).toEqual({ kind: 'relative', preset: '1h' });
  });

  it('picks round histogram buckets, at most 90 of them', () => {
    expect(bucketWidth(3600_000)).toEqual({ ms: 60_000, text: '1m' });
    expect(bucketWidth(15 * 60_000)).toEqual({ ms: 10_000, text: '10s' });
    expect(bucketWidth(30 * 86400_000)).toEqual({ ms: 12 * 3600_000, text: '12h' });
  });

  it('reads and writes wall-clock times in a named zone', () => {
    const d = new Date('2024-07-01T10:30:15Z');
    expect(toInputValue(d, 'America/New_York')).toBe('2024-07-01T06:30:15');
    expect(fromInputValue('2024-07-01T06:30:15', 'America/New_York')).toEqual(d);
    expect(fromInputValue('2024-01-15T12:00', 'UTC')).toEqual(new Date('2024-01-15T12:00:00Z'));
    expect(fromInputValue('yesterday', 'UTC')).toBeNull();
  });
});
