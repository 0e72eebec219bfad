import { useEffect, useId, useState } from 'react';
import { NextRuns } from '../api/types';
import { usePrefs } from '../prefs/PrefsContext';
import { ErrorNote } from '../ui/ErrorNote';
import { formatTime } from '../ui/time-format';
import { nextRuns, scheduleInWords } from './scheduled-api';

const rel = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "in 25 minutes", "in 3 hours", "in 2 days". */
export function fromNow(iso: string, now = Date.now()): string {
  const s = Math.round((Date.parse(iso) - now) / 1000);
  if (Math.abs(s) < 60) return rel.format(s, 'second');
  if (Math.abs(s) < 3600) return rel.format(Math.round(s / 60), 'minute');
  if (Math.abs(s) < 86400) return rel.format(Math.round(s / 3600), 'hour');
  return rel.format(Math.round(s / 86400), 'day');
}

/**
 * The cron field: the schedule as typed, then in words and its next three run times as the
 * service computes them (the same rules it runs by), or the service's refusal of it.
 */
export function ScheduleField({ defaultSchedule, defaultTimezone }: { defaultSchedule: string; defaultTimezone: string }) {
  const { prefs } = usePrefs();
  const [schedule, setSchedule] = useState(defaultSchedule);
  const [timezone, setTimezone] = useState(defaultTimezone);
  const [next, setNext] = useState<NextRuns>();
  const [problem, setProblem] = useState<string>();
  const hint = useId();
  const preview = useId();

  useEffect(() => {
    const ac = new AbortController();
    const t = setTimeout(() => {
      if (!schedule.trim()) return setProblem(undefined);
      nextRuns(schedule, timezone, ac.signal).then(
        (n) => {
          setNext(n);
          setProblem(undefined);
        },
        (err: Error) => {
          if (ac.signal.aborted) return;
          setNext(undefined);
          setProblem(err.message);
        },
      );
    }, 250);
    return () => {
      clearTimeout(t);
      ac.abort();
    };
  }, [schedule, timezone]);

  const words = scheduleInWords(schedule);
  return (
    <>
      <label>
        Schedule
        <input
          name="schedule"
          className="mono"
          value={schedule}
          onChange={(e) => setSchedule(e.target.value)}
          required
          maxLength={256}
          spellCheck={false}
          aria-describedby={`${hint} ${preview}`}
        />
      </label>
      <span id={hint} className="muted small field-hint">
        Cron: minute hour day-of-month month day-of-week (e.g. <code>0 8 * * 1-5</code>), or @hourly, @daily, @weekly, @monthly, @yearly.
      </span>
      <div id={preview} className="schedule-preview" aria-live="polite">
        {problem ? (
          <ErrorNote message={problem} />
        ) : (
          <>
            {words && (
              <p>
                {words}
                {timezone ? ` (${timezone})` : ' (UTC)'}.
              </p>
            )}
            {next && next.Next.length > 0 && (
              <p>
                Next runs:{' '}
                {next.Next.map((iso, i) => (
                  <span key={iso}>
                    {i > 0 && ', '}
                    <time dateTime={iso}>{formatTime(iso, prefs.timeZone).slice(0, 16)}</time> ({fromNow(iso)})
                  </span>
                ))}
              </p>
            )}
          </>
        )}
      </div>
      <label>
        Time zone of the schedule
        <input name="timezone" value={timezone} onChange={(e) => setTimezone(e.target.value)} placeholder="UTC" maxLength={64} spellCheck={false} list="scheduled-zones" />
        <datalist id="scheduled-zones">
          {[
            Intl.DateTimeFormat().resolvedOptions().timeZone,
            'UTC',
            'Europe/London',
            'Europe/Paris',
            'America/New_York',
            'America/Chicago',
            'America/Los_Angeles',
            'Asia/Tokyo',
          ].map((z) => (
            <option key={z} value={z === 'UTC' ? '' : z}>
              {z}
            </option>
          ))}
        </datalist>
      </label>
    </>
  );
}
