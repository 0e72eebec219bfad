import { IngestMeter } from './ingest-meter';

describe('IngestMeter', () => {
  it('keeps totals, minute and hour tails, newest last', () => {
    const m = new IngestMeter();
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 30);
    m.record('a', 10, 100, t0);
    m.record('a', 5, 50, t0 + 60_000);
    const s = m.snapshot('a', t0 + 60_000);
    expect(s.TotalCount).toBe(15);
    expect(s.TotalSize).toBe(150);
    expect(s.EntriesMinuteTail.slice(-2)).toEqual([10, 5]);
    expect(s.EntriesHourTail[23]).toBe(15);
    expect(s.LastDayCount).toBe(15);
    expect(s.EntriesPerSecond).toBeGreaterThan(0);
  });

  it('forgets slots older than the tail', () => {
    const m = new IngestMeter();
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
    m.record('a', 7, 70, t0);
    const s = m.snapshot('a', t0 + 2 * 3600_000);
    expect(s.EntriesMinuteTail.every((c) => c === 0)).toBe(true);
    expect(s.EntriesHourTail.slice(-3)).toEqual([7, 0, 0]);
    expect(m.snapshot('a', t0 + 25 * 3600_000).LastDayCount).toBe(0);
    expect(m.snapshot('a', t0 + 25 * 3600_000).TotalCount).toBe(7);
  });

  it('answers zeros for an indexer that never ingested', () => {
    expect(new IngestMeter().snapshot('x').TotalCount).toBe(0);
  });
});
