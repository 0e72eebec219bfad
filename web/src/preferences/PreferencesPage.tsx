import { useId, useMemo, useState } from 'react';
import { ThemePref } from '../api/types';
import '../ui/keeping.css';
import { usePrefs } from '../prefs/PrefsContext';
import { ConsolePrefs, DEFAULT_PREFS } from '../prefs/prefs';
import { PRESETS } from '../search/time-range';
import { formatTime } from '../ui/time-format';
import { browserZone, PAGE_SIZES, timeZoneChoices } from './zones';

const THEMES: Array<{ value: ThemePref; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/**
 * The console's settings, saved in the person's preferences on the service as soon as they are
 * changed, so they follow the person to any browser they sign in from.
 */
export function PreferencesPage() {
  const { prefs, loaded, save } = usePrefs();
  const [status, setStatus] = useState<{ ok: boolean; text: string }>();
  const zones = useMemo(timeZoneChoices, []);
  const ids = { theme: useId(), zone: useId(), range: useId(), size: useId() };
  const zoneList = prefs.timeZone === 'local' || zones.includes(prefs.timeZone) ? zones : [prefs.timeZone, ...zones];

  const change = (patch: Partial<ConsolePrefs>) => {
    setStatus({ ok: true, text: 'Saving…' });
    save(patch).then(
      () => setStatus({ ok: true, text: 'Saved. These settings follow you to any browser you sign in from.' }),
      (err: Error) => setStatus({ ok: false, text: `Not saved: ${err.message}` }),
    );
  };

  return (
    <section className="keeping-page preferences" aria-labelledby="prefs-title">
      <div className="page-head">
        <h1 id="prefs-title">Preferences</h1>
      </div>
      {!loaded && <p className="muted">Loading your settings…</p>}
      <form className="prefs-form" aria-label="Console settings" onSubmit={(e) => e.preventDefault()}>
        <fieldset className="theme-choices">
          <legend>Theme</legend>
          {THEMES.map((t) => (
            <label key={t.value} className="check">
              <input
                type="radio"
                name="theme"
                value={t.value}
                checked={prefs.theme === t.value}
                onChange={() => change({ theme: t.value })}
                aria-describedby={t.value === 'system' ? `${ids.theme}-hint` : undefined}
              />
              {t.label}
            </label>
          ))}
          <p id={`${ids.theme}-hint`} className="muted small">
            System follows the light or dark setting of your computer.
          </p>
        </fieldset>

        <div className="pref">
          <label htmlFor={ids.zone}>Time zone</label>
          <select id={ids.zone} value={prefs.timeZone} onChange={(e) => change({ timeZone: e.target.value })} aria-describedby={`${ids.zone}-hint`}>
            <option value="local">This browser’s zone ({browserZone()})</option>
            {zoneList.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
          <p id={`${ids.zone}-hint`} className="muted small">
            Times of entries, charts and searches show in this zone; now it is {formatTime(new Date(), prefs.timeZone).slice(0, 16)}.
          </p>
        </div>

        <div className="pref">
          <label htmlFor={ids.range}>Default time range</label>
          <select id={ids.range} value={prefs.defaultRange} onChange={(e) => change({ defaultRange: e.target.value })} aria-describedby={`${ids.range}-hint`}>
            {PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
          <p id={`${ids.range}-hint`} className="muted small">
            The range a new search page starts with, and the range of queries opened from the library or the history.
          </p>
        </div>

        <div className="pref">
          <label htmlFor={ids.size}>Page size</label>
          <select id={ids.size} value={prefs.pageSize} onChange={(e) => change({ pageSize: Number(e.target.value) })} aria-describedby={`${ids.size}-hint`}>
            {[...new Set([...PAGE_SIZES, prefs.pageSize])]
              .sort((a, b) => a - b)
              .map((n) => (
                <option key={n} value={n}>
                  {n} rows
                </option>
              ))}
          </select>
          <p id={`${ids.size}-hint`} className="muted small">
            Rows per page of result tables, and searches per page of the history.
          </p>
        </div>

        <div className="toolbar">
          <button type="button" onClick={() => change(DEFAULT_PREFS)}>
            Reset to defaults
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {status && (
          <p className={status.ok ? 'notice' : 'error'} role={status.ok ? 'status' : 'alert'}>
            {status.text}
          </p>
        )}
      </div>
    </section>
  );
}
