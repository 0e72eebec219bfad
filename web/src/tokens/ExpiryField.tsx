import { useId } from 'react';
import { usePrefs } from '../prefs/PrefsContext';
import { EXPIRY_PRESETS, ExpiryChoice, tomorrow } from './expiry';

/** "Expires": a preset, a day on the calendar, never, or (`current` given) keep what it is. */
export function ExpiryField({
  choice,
  day,
  onChoice,
  onDay,
  current,
}: {
  choice: ExpiryChoice;
  day: string;
  onChoice(c: ExpiryChoice): void;
  onDay(d: string): void;
  /** the current expiry in words, to offer keeping it */
  current?: string;
}) {
  const { prefs } = usePrefs();
  const hint = useId();
  return (
    <div className="expiry-field">
      <label>
        Expires
        <select value={choice} onChange={(e) => onChoice(e.target.value as ExpiryChoice)} aria-describedby={hint}>
          {current !== undefined && <option value="keep">Keep the current expiry ({current})</option>}
          {EXPIRY_PRESETS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      {choice === 'date' && (
        <label>
          Expiry day
          <input type="date" value={day} min={tomorrow(new Date(), prefs.timeZone)} onChange={(e) => onDay(e.target.value)} required />
        </label>
      )}
      <p id={hint} className="muted small">
        An expired token stays listed but opens nothing until it is refreshed.
      </p>
    </div>
  );
}
