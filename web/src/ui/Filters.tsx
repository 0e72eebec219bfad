import { ReactNode } from 'react';

/** A list page's filters, one row (a search landmark named `label`, "Filter the groups"). */
export function FilterBar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="toolbar filters" role="search" aria-label={label}>
      {children}
    </div>
  );
}

/** The words that narrow a list: a search box named `label`. */
export function SearchBox({ label, value, onChange, placeholder }: { label: string; value: string; onChange(value: string): void; placeholder: string }) {
  return (
    <label>
      {label}
      <input type="search" value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} />
    </label>
  );
}

/** An administrator's switch between their own things and every user's (`?admin=true`). */
export function EveryUsersSwitch({ admin, checked, onChange, what }: { admin: boolean; checked: boolean; onChange(v: boolean): void; what: string }) {
  if (!admin) return null;
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      Every user's {what}
    </label>
  );
}
