import { useEffect, useId, useRef } from 'react';
import { CapabilityArea } from './capability-areas';

/**
 * Capability checkboxes grouped by area, each area with an "all of it" box (mixed when only some
 * are chosen). Areas whose capabilities reach no API of this service yet are folded away below.
 */
export function CapabilityPicker({ areas, selected, onChange }: { areas: CapabilityArea[]; selected: Set<string>; onChange(next: Set<string>): void }) {
  const live = areas.filter((a) => a.grants);
  const idle = areas.filter((a) => !a.grants);
  const idleHeld = idle.some((a) => a.caps.some((c) => selected.has(c.Name)));
  return (
    <div className="capability-picker">
      <div className="areas">
        {live.map((a) => (
          <Area key={a.name} area={a} selected={selected} onChange={onChange} />
        ))}
      </div>
      {idle.length > 0 && (
        <details open={idleHeld}>
          <summary>Areas with no API in this service yet ({idle.length})</summary>
          <p className="muted small">The product's clients know these names; a token may hold them, but they open nothing here.</p>
          <div className="areas">
            {idle.map((a) => (
              <Area key={a.name} area={a} selected={selected} onChange={onChange} />
            ))}
          </div>
        </details>
      )}
    </div>
  );
}

function Area({ area, selected, onChange }: { area: CapabilityArea; selected: Set<string>; onChange(next: Set<string>): void }) {
  const held = area.caps.filter((c) => selected.has(c.Name)).length;
  const all = useRef<HTMLInputElement>(null);
  const base = useId();
  useEffect(() => {
    if (all.current) all.current.indeterminate = held > 0 && held < area.caps.length;
  }, [held, area.caps.length]);

  const set = (names: string[], on: boolean) => {
    const next = new Set(selected);
    for (const n of names) {
      if (on) next.add(n);
      else next.delete(n);
    }
    onChange(next);
  };

  return (
    <fieldset className="area">
      <legend>
        <label className="check">
          <input
            ref={all}
            type="checkbox"
            aria-label={`All of ${area.name}`}
            checked={held === area.caps.length}
            onChange={(e) =>
              set(
                area.caps.map((c) => c.Name),
                e.target.checked,
              )
            }
          />
          {area.name}
        </label>
      </legend>
      {area.caps.map((c, i) => (
        <div key={c.Name} className={c.Grants ? 'cap' : 'cap idle'}>
          <label className="check">
            <input type="checkbox" checked={selected.has(c.Name)} onChange={(e) => set([c.Name], e.target.checked)} aria-describedby={`${base}-${i}`} />
            {c.Name}
          </label>
          <span id={`${base}-${i}`} className="muted small">
            {c.Desc}
          </span>
        </div>
      ))}
    </fieldset>
  );
}
