import { FormEvent, useEffect, useId, useRef, useState } from 'react';
import { formatTime, fromInputValue, toInputValue } from '../ui/time-format';
import { PRESETS, presetOf, resolveRange, TimeRange } from './time-range';
import { ErrorNote } from '../ui/ErrorNote';

export function rangeLabel(r: TimeRange, zone: string): string {
  if (r.kind === 'relative') return presetOf(r.preset)?.label ?? r.preset;
  return `${formatTime(r.start, zone).slice(0, 19)} to ${formatTime(r.end, zone).slice(0, 19)}`;
}

/** Relative presets (last 15 minutes ... last 30 days) and absolute ranges in the person's zone. */
export function TimePicker({ value, onChange, zone }: { value: TimeRange; onChange(r: TimeRange): void; zone: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const panel = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const current = resolveRange(value);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!panel.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const choose = (r: TimeRange) => {
    onChange(r);
    setOpen(false);
    setError(undefined);
  };

  const applyAbsolute = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const start = fromInputValue(String(form.get('start')), zone);
    const end = fromInputValue(String(form.get('end')), zone);
    if (!start || !end) return setError('Enter a start and an end.');
    if (start.getTime() >= end.getTime()) return setError('The start must be before the end.');
    choose({ kind: 'absolute', start, end });
  };

  return (
    <div className="time-picker">
      <button ref={button} type="button" aria-expanded={open} aria-controls={id} aria-label={`Time range: ${rangeLabel(value, zone)}`} onClick={() => setOpen(!open)}>
        {rangeLabel(value, zone)}
      </button>
      {open && (
        <div className="popover" id={id} ref={panel} role="dialog" aria-label="Time range">
          <fieldset>
            <legend>Relative</legend>
            <div className="preset-list">
              {PRESETS.map((p) => (
                <button key={p.id} type="button" aria-pressed={value.kind === 'relative' && value.preset === p.id} onClick={() => choose({ kind: 'relative', preset: p.id })}>
                  {p.label}
                </button>
              ))}
            </div>
          </fieldset>
          <form onSubmit={applyAbsolute}>
            <fieldset>
              <legend>Absolute{zone !== 'local' ? ` (${zone})` : ''}</legend>
              <label>
                Start
                <input type="datetime-local" name="start" step="1" defaultValue={toInputValue(current.start, zone)} required />
              </label>
              <label>
                End
                <input type="datetime-local" name="end" step="1" defaultValue={toInputValue(current.end, zone)} required />
              </label>
              <ErrorNote message={error} />
              <button type="submit">Apply range</button>
            </fieldset>
          </form>
        </div>
      )}
    </div>
  );
}
