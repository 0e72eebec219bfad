import { CronSchedule } from './cron-schedule';
import { dueSlots } from './scheduler.service';

const at = (iso: string) => new Date(iso);

describe('CronSchedule', () => {
  it('reads five fields and the product shorthands, in UTC or a named zone', () => {
    expect(CronSchedule.parse('@hourly').next(at('2024-04-01T10:30:00Z'))).toEqual(at('2024-04-01T11:00:00Z'));
    expect(CronSchedule.parse('@daily').next(at('2024-04-01T10:30:00Z'))).toEqual(at('2024-04-02T00:00:00Z'));
    expect(CronSchedule.parse('@weekly').next(at('2024-04-01T10:30:00Z'))).toEqual(at('2024-04-07T00:00:00Z'));
    expect(CronSchedule.parse('0 9 * * MON-FRI', 'Europe/Paris').next(at('2024-04-01T10:30:00Z'))).toEqual(at('2024-04-02T07:00:00Z'));
    expect(CronSchedule.parse('*/15 * * * *').upcoming(at('2024-04-01T10:31:00Z'), 3)).toEqual([
      at('2024-04-01T10:45:00Z'),
      at('2024-04-01T11:00:00Z'),
      at('2024-04-01T11:15:00Z'),
    ]);
  });

  it('refuses seconds, unknown shorthands, bad fields and unknown zones with the reason', () => {
    for (const bad of ['* * * * * *', '@every 5m', '@secondly', '61 * * * *', 'a b c d e', '', '* * *']) {
      expect(() => CronSchedule.parse(bad)).toThrow(expect.objectContaining({ code: 'SCHEDULE_INVALID' }));
    }
    expect(() => CronSchedule.parse('@daily', 'Mars/Olympus')).toThrow(expect.objectContaining({ code: 'SCHEDULE_TIMEZONE_INVALID' }));
  });

  it('the shortest interval between slots', () => {
    expect(CronSchedule.parse('* * * * *').shortestInterval(at('2024-04-01T00:00:00Z'))).toBe(60_000);
    expect(CronSchedule.parse('0,1 0 * * *').shortestInterval(at('2024-04-01T00:00:30Z'))).toBe(60_000);
    expect(CronSchedule.parse('@hourly').shortestInterval(at('2024-04-01T00:00:00Z'))).toBe(3_600_000);
  });
});

describe('dueSlots (what one tick queues)', () => {
  const s = { schedule: '0 * * * *', timezone: '', nextSlot: at('2024-04-01T11:00:00Z'), backfillEnabled: false, oneShotAt: null };

  it('nothing before the next slot; the slot once it is due', () => {
    expect(dueSlots(s, at('2024-04-01T10:59:59Z'), 100)).toEqual({ slots: [], next: at('2024-04-01T11:00:00Z'), skipped: 0 });
    expect(dueSlots(s, at('2024-04-01T11:00:00Z'), 100)).toEqual({ slots: [{ slot: at('2024-04-01T11:00:00Z'), kind: 'schedule' }], next: at('2024-04-01T12:00:00Z'), skipped: 0 });
  });

  it('missed slots: only the latest without backfill; the latest N with it', () => {
    const now = at('2024-04-01T14:30:00Z');
    expect(dueSlots(s, now, 100)).toMatchObject({ slots: [{ slot: at('2024-04-01T14:00:00Z') }], next: at('2024-04-01T15:00:00Z'), skipped: 3 });
    const b = dueSlots({ ...s, backfillEnabled: true }, now, 100);
    expect(b.slots.map((x) => x.slot.toISOString())).toEqual(['2024-04-01T11:00:00.000Z', '2024-04-01T12:00:00.000Z', '2024-04-01T13:00:00.000Z', '2024-04-01T14:00:00.000Z']);
    expect(dueSlots({ ...s, backfillEnabled: true }, now, 2)).toMatchObject({ skipped: 2, slots: [{ slot: at('2024-04-01T13:00:00Z') }, { slot: at('2024-04-01T14:00:00Z') }] });
  });

  it('a run now comes first, with the time it was asked for', () => {
    expect(dueSlots({ ...s, oneShotAt: at('2024-04-01T10:10:00Z') }, at('2024-04-01T10:20:00Z'), 100).slots).toEqual([{ slot: at('2024-04-01T10:10:00Z'), kind: 'oneshot' }]);
  });
});
