import { ReactNode, useCallback, useMemo, useState } from 'react';
import { useAuth } from '../auth/AuthContext';
import { downloadFile } from '../common-upload/download';
import { ActionDialog } from './Dialog';
import { allLabels } from './kept-filter';
import { ListTable } from './TableScroller';
import { formatBytes } from './time-format';
import { useCancellable } from './useCancellable';
import { useAllGroups } from './useGroups';
import { useUserNames } from './useUserNames';
import { ErrorNote } from './ErrorNote';
import { EveryUsersSwitch, FilterBar, SearchBox } from './Filters';

/**
 * The one list page of every kind of kept thing (library, dashboards, resources, files): its state
 * (useKeptPage, on useKeptList: the list read from the API and sorted, the filters, the dialog open, the last
 * action's outcome, the administrators' switch to every user's things) and its frame
 * (KeptListPage), with the owner's cell and the delete dialog.
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

/** A kept thing as its list page needs it: its owner, and its labels where it has some. */
export interface Owned {
  UID: number;
  Labels?: readonly string[] | null;
}

/**
 * The state of a kept things' page. `read(admin)` lists them (`admin`: every user's; a module
 * function), `compare` sorts them, `what` names them in a read error ("the files"), `matches` says
 * whether one passes the filters (the words typed, the label picked or ''). `owners` says
 * when to ask the service for usernames (for the owner column): always, in admin mode, or when
 * someone else's thing is listed. `E` is what the page's open dialog is about.
 */
export function useKeptPage<T extends Owned, E>({
  read,
  compare,
  what,
  matches,
  owners,
}: {
  read(admin: boolean): Promise<T[]>;
  compare(a: T, b: T): number;
  what: string;
  matches(t: T, text: string, label: string): boolean;
  owners: 'always' | 'admin' | 'others';
}) {
  const { user } = useAuth();
  const groups = useAllGroups();
  const [admin, setAdmin] = useState(false);
  const { list, error, reload } = useKeptList(read, admin, compare, what);
  const names = useUserNames(owners === 'always' || (owners === 'admin' ? admin : (list ?? []).some((t) => t.UID !== user.UID)));
  const [text, setText] = useState('');
  const [label, setLabel] = useState('');
  const [editing, setEditing] = useState<E>();
  const [note, setNote] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const labels = useMemo(() => allLabels(list ?? []), [list]);
  const shown = useMemo(() => (list ?? []).filter((t) => matches(t, text, label)), [list, text, label]); // eslint-disable-line react-hooks/exhaustive-deps -- `matches` is the page's filter rule, the same each render

  const done = (message: string) => {
    setEditing(undefined);
    setNote(message);
    reload();
  };
  /** the owner's username (else "user 7") */
  const ownerOf = (t: Owned) => names.get(t.UID) ?? `user ${t.UID}`;
  return {
    user,
    /** every group, to name those a thing is shared with */
    groups,
    admin,
    setAdmin,
    list,
    /** the things that pass the filters */
    shown,
    /** every label the things use */
    labels,
    /** why the list could not be read, or the last download failed */
    error: error ?? failure,
    reload,
    text,
    setText,
    label,
    setLabel,
    editing,
    setEditing,
    note,
    setNote,
    ownerOf,
    /** the owner when it is someone else (for OwnedNameCell) */
    otherOwner: (t: Owned) => (t.UID !== user.UID ? ownerOf(t) : undefined),
    /** closes the dialog */
    close: () => setEditing(undefined),
    /** a dialog saved a thing: it closes, says `message` and the list is read again */
    saved: (_thing: unknown, message: string) => done(message),
    /** an action is done: the dialog closes, its outcome is shown and the list read again */
    done,
    /** downloads a thing's contents, saying so under the filters */
    async download(url: string, name: string, size: number) {
      setNote(`Downloading “${name}”…`);
      setFailure(undefined);
      try {
        await downloadFile(url, name);
        setNote(`Downloaded “${name}” (${formatBytes(size)}).`);
      } catch (err) {
        setNote(undefined);
        setFailure(`“${name}” could not be downloaded: ${(err as Error).message}`);
      }
    },
  };
}

export type KeptPage<T extends Owned, E> = ReturnType<typeof useKeptPage<T, E>>;

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
      <ErrorNote message={error} />
      {list === undefined && !error && <p className="muted">{loading}</p>}
      {empty && list && list.length === 0 && <p className="empty">{empty}</p>}
    </>
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
export function KeptListPage<T extends Owned, E>({
  page,
  id,
  title,
  create,
  actions,
  intro,
  filter,
  labels,
  loading,
  empty,
  columns,
  tableLabel,
  noMatch,
  children,
  dialogs,
}: {
  page: KeptPage<T, E>;
  /** names the page's heading (`${id}-title`) */
  id: string;
  title: string;
  /** the page's main button ("New resource") */
  create: { label: string; onClick(): void };
  /** more controls beside it */
  actions?: ReactNode;
  intro: ReactNode;
  /** the filter box: `what` completes "Filter …" and "Every user's …", `label` names the box */
  filter: { what: string; every: string; label: string; placeholder: string };
  /** the things have labels: a picker narrows the list to one */
  labels?: boolean;
  loading: string;
  empty: string;
  columns: string[];
  tableLabel: string;
  noMatch: string;
  children: ReactNode;
  dialogs?: ReactNode;
}) {
  const { list } = page;
  const createButton = (
    <button type="button" className="primary" onClick={create.onClick}>
      {create.label}
    </button>
  );
  return (
    <section className="keeping-page" aria-labelledby={`${id}-title`}>
      <div className="page-head">
        <h1 id={`${id}-title`}>{title}</h1>
        {actions ? (
          <div className="toolbar">
            {actions}
            {createButton}
          </div>
        ) : (
          createButton
        )}
      </div>
      <p className="muted intro">{intro}</p>
      <FilterBar label={`Filter ${filter.what}`}>
        <SearchBox label={filter.label} value={page.text} onChange={page.setText} placeholder={filter.placeholder} />
        {labels && (
          <label>
            Label
            <select value={page.label} onChange={(e) => page.setLabel(e.target.value)}>
              <option value="">All labels</option>
              {page.labels.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </label>
        )}
        <EveryUsersSwitch admin={page.user.Admin} checked={page.admin} onChange={page.setAdmin} what={filter.every} />
      </FilterBar>
      <ListMessages note={page.note} error={page.error} list={list} loading={loading} empty={empty} />
      {list && list.length > 0 && (
        <ListTable label={tableLabel} columns={columns}>
          {children}
        </ListTable>
      )}
      {list && list.length > 0 && page.shown.length === 0 && <p className="empty">{noMatch}</p>}
      {dialogs}
    </section>
  );
}

/**
 * "Delete “X”…? … This cannot be undone." for a kept thing: `from` follows its name (" from the
 * library"), `consequence` says what goes with it; `run` deletes it, and the page then says so.
 */
export function DeleteKeptDialog<T extends Owned, E>({
  page,
  title,
  name,
  from = '',
  consequence,
  run,
}: {
  page: KeptPage<T, E>;
  title: string;
  name: string;
  from?: string;
  consequence?: string;
  run(): Promise<unknown>;
}) {
  return (
    <ActionDialog
      title={title}
      message={
        <>
          Delete “{name}”{from}? {consequence ? `${consequence} ` : ''}This cannot be undone.
        </>
      }
      action="Delete"
      run={run}
      onDone={() => page.done(`Deleted “${name}”.`)}
      onClose={page.close}
    />
  );
}
