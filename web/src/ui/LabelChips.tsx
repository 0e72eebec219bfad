/**
 * An object's labels as buttons that filter a list by that label (pressed: the filter in use;
 * pressed again: off). `what` names the list's objects: "Show dashboards labelled web".
 */
export function LabelChips({ labels, what, active, onPick }: { labels: readonly string[] | null | undefined; what: string; active: string; onPick: (label: string) => void }) {
  return (
    <ul className="chips" aria-label="Labels">
      {(labels ?? []).map((l) => (
        <li key={l}>
          <button type="button" className="chip" aria-label={`Show ${what} labelled ${l}`} aria-pressed={active === l} onClick={() => onPick(active === l ? '' : l)}>
            {l}
          </button>
        </li>
      ))}
    </ul>
  );
}
