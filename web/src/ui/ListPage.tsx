import { ReactNode, useCallback, useState } from 'react';
import { useCancellable } from './useCancellable';

/**
 * The pieces every "things you keep" page shares (library, dashboards, resources, files): the
 * list read from the API and sorted, its state in words, and the administrators' switch to every
 * user's things.
 */

export interface ListState<T> {
  /** undefined while the first read runs */
  list?: T[];
  /** why the list could not be read, in words */
  error?: string;
  /** reads the list again (after a change) */
  reload(): void;
}

/**
 * `read(admin)` lists the things (`admin`: every user's); `what` names them in the error ("the
 * files"). `read` and `compare` should be module functions (the list is read again when they change).
 */
export function useKeptList<T>(read: (admin: boolean) => Promise<T[]>, admin: boolean, compare: (a: T, b: T) => number, what: string): ListState<T> {
  const [list, setList] = useState<T[]>();
  const [error, setError] = useState<string>();
  const [round, setRound] = useState(0);
  useCancellable(
    () => read(admin),
    {
      answer: (l) => {
        setList([...l].sort(compare));
        setError(undefined);
      },
      error: (err) => setError(`${what[0].toUpperCase()}${what.slice(1)} could not be read: ${err.message}`),
    },
    [read, compare, admin, round, what],
  );
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { list, error, reload };
}

/**
 * The line under the filters: the last action's outcome (`noteIsError`: a refusal), a read error,
 * "Loading…", or why the list is empty.
 */
export function ListMessages({
  note,
  noteIsError,
  error,
  list,
  loading,
  empty,
}: {
  note?: string;
  noteIsError?: boolean;
  error?: string;
  list?: unknown[];
  loading: string;
  empty?: string;
}) {
  return (
    <>
      <p role="status" className={noteIsError ? 'error' : 'muted'}>
        {note}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {list === undefined && !error && <p className="muted">{loading}</p>}
      {empty && list && list.length === 0 && <p className="empty">{empty}</p>}
    </>
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

/** A kept thing's row header: its name (or a link), description, and its owner when not the person's own. */
export function OwnedNameCell({ name, description, owner }: { name: ReactNode; description?: string; owner?: string }) {
  return (
    <th scope="row" className="entry-name">
      {typeof name === 'string' ? <span>{name}</span> : name}
      {description && <span className="muted desc">{description}</span>}
      {owner && <span className="muted desc">Owner: {owner}</span>}
    </th>
  );
}
