import { ReactNode, useCallback, useState } from 'react';
import { ConfirmDialog } from './Dialog';
import { TableScroller } from './TableScroller';
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

/**
 * The page of one kind of kept thing: its title and actions, the intro, the filters (the words
 * typed, the label picked where the things have labels, an administrator's switch to every user's
 * things), the outcome line, and the table of the things that match (`children`: its rows), or
 * why there is none. `dialogs` open above it.
 */
export function KeptListPage({
  id,
  title,
  actions,
  intro,
  filter,
  labels,
  everyUsers,
  messages,
  columns,
  tableLabel,
  matches,
  noMatch,
  children,
  dialogs,
}: {
  /** names the page's heading (`${id}-title`) */
  id: string;
  title: string;
  actions: ReactNode;
  intro: ReactNode;
  /** the filter box: `what` completes "Filter …", `label` names the box */
  filter: { what: string; label: string; placeholder: string; text: string; onText(text: string): void };
  /** the label picker, for things with labels: every label in use and the one picked ('' for all) */
  labels?: { all: string[]; picked: string; onPick(label: string): void };
  everyUsers: { admin: boolean; checked: boolean; onChange(v: boolean): void; what: string };
  messages: Parameters<typeof ListMessages>[0];
  columns: string[];
  tableLabel: string;
  /** how many things pass the filters */
  matches: number;
  noMatch: string;
  children: ReactNode;
  dialogs?: ReactNode;
}) {
  const list = messages.list;
  return (
    <section className="keeping-page" aria-labelledby={`${id}-title`}>
      <div className="page-head">
        <h1 id={`${id}-title`}>{title}</h1>
        {actions}
      </div>
      <p className="muted intro">{intro}</p>
      <div className="toolbar filters" role="search" aria-label={`Filter ${filter.what}`}>
        <label>
          {filter.label}
          <input type="search" value={filter.text} onChange={(e) => filter.onText(e.target.value)} placeholder={filter.placeholder} />
        </label>
        {labels && (
          <label>
            Label
            <select value={labels.picked} onChange={(e) => labels.onPick(e.target.value)}>
              <option value="">All labels</option>
              {labels.all.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </label>
        )}
        <EveryUsersSwitch {...everyUsers} />
      </div>
      <ListMessages {...messages} />
      {list && list.length > 0 && (
        <TableScroller>
          <table className="keeping-table" aria-label={tableLabel}>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{children}</tbody>
          </table>
        </TableScroller>
      )}
      {list && list.length > 0 && matches === 0 && <p className="empty">{noMatch}</p>}
      {dialogs}
    </section>
  );
}

/**
 * "Delete X?" for a kept thing: `remove` deletes it; while it runs the button waits, a refusal
 * is shown in the dialog (which stays open), and when it is gone `onDeleted` follows.
 */
export function DeleteDialog({
  title,
  message,
  remove,
  onDeleted,
  onClose,
}: {
  title: string;
  message: ReactNode;
  remove(): Promise<unknown>;
  onDeleted(): void;
  onClose(): void;
}) {
  const [state, setState] = useState<{ busy?: boolean; error?: string }>({});
  async function confirm() {
    setState({ busy: true });
    try {
      await remove();
    } catch (err) {
      return setState({ error: (err as Error).message });
    }
    onDeleted();
  }
  return <ConfirmDialog title={title} message={message} action="Delete" error={state.error} busy={state.busy} onConfirm={() => void confirm()} onClose={onClose} />;
}
