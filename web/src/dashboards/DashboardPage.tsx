import { useEffect, useMemo, useRef, useState } from 'react';
import { ActionablesProvider } from '../actionables/ValueActions';
import { Link, useParams } from 'react-router';
import { useAuth } from '../auth/AuthContext';
import { ConfirmDialog } from '../ui/Dialog';
import { usePrefs } from '../prefs/PrefsContext';
import { useAllGroups } from '../ui/useGroups';
import { AddTileDialog } from './AddTileDialog';
import { ConflictDialog } from './ConflictDialog';
import { DashboardGrid } from './DashboardGrid';
import { DashboardHeader } from './DashboardHeader';
import { DashboardStatus } from './DashboardStatus';
import { DashboardToolbar } from './DashboardToolbar';
import { readDashboardData, Span, templateRef, TileView, withNewTile, withoutTile, withSettings, withSpans, withTile } from './dashboard-data';
import { DashboardVariablesBar, DashboardVariablesDialog } from './DashboardVariables';
import { SettingsDialog } from './SettingsDialog';
import { Tile } from './Tile';
import { TileDialog } from './TileDialog';
import { useDashboardDraft } from './useDashboardDraft';
import { useDashboardSearches } from './useDashboardSearches';
import { useDashboardTime } from './useDashboardTime';
import { useDashboardVariables } from './useDashboardVariables';
import { useUnsavedChangesGuard } from './useUnsavedChangesGuard';
import './dashboards.css';

/** The dialog open over the page, if any. */
type Editing = { kind: 'tile'; tile: TileView } | { kind: 'remove'; tile: TileView } | { kind: 'settings' } | { kind: 'add' } | { kind: 'conflict' } | { kind: 'variables' };

/**
 * One dashboard: its tiles on the grid, each showing its search's results; a time range for all
 * of them, live updates, linked zooming. Its owner (or an admin) moves and resizes tiles, changes
 * them and the dashboard's settings, and saves the whole structure back; a save that would
 * overwrite someone else's newer one asks first.
 */
export function DashboardPage() {
  const { ref = '' } = useParams();
  const { user } = useAuth();
  const { prefs } = usePrefs();
  const groups = useAllGroups();
  const [editing, setEditing] = useState<Editing>();
  const [paused, setPaused] = useState(false);
  const time = useDashboardTime();
  const { draft, dirty, loadError, note, problem, saving, change, save, discard, reloadSaved } = useDashboardDraft(ref, {
    onLoaded: (d) => {
      const read = readDashboardData(d.Data);
      time.follow(read.ok ? read.view.range : undefined);
    },
    onSaved: () => setEditing(undefined),
    onConflict: () => setEditing({ kind: 'conflict' }),
    // Out of the conflict dialog (Overwrite failed), onto the page: the changes stay.
    onSaveFailed: () => setEditing((e) => (e?.kind === 'conflict' ? undefined : e)),
  });
  useEffect(() => {
    // Another dashboard: no dialog or pause of the previous one stays.
    setEditing(undefined);
    setPaused(false);
  }, [ref]);

  const read = useMemo(() => (draft ? readDashboardData(draft.Data) : undefined), [draft]);
  const view = read?.ok ? read.view : undefined;
  const mayWrite = !!draft && (draft.UID === user.UID || user.Admin);
  // A version the console does not edit (1, or unknown) is shown read-only, even to its owner.
  const canWrite = mayWrite && !view?.readOnly;

  const vars = useDashboardVariables(view);
  const { slots, ranAt, live, moving, refresh, confirm } = useDashboardSearches(draft?.ID, view, time, paused, vars.valuesOf);
  // Tiles run templates whose variables have no values yet: ask, once per dashboard opened.
  const asked = useRef<string>(undefined);
  const mustAsk = vars.loaded && vars.variables.length > 0 && vars.values === undefined;
  useEffect(() => {
    if (!mustAsk || asked.current === ref) return;
    asked.current = ref;
    setEditing((e) => e ?? { kind: 'variables' });
  }, [mustAsk, ref]);
  const blocker = useUnsavedChangesGuard(dirty);

  if (loadError)
    return (
      <section className="page-message dashboard-missing">
        <h1>Dashboard</h1>
        <p className="error" role="alert">
          {loadError}
        </p>
        <p>
          <Link to="/dashboards">All dashboards</Link>
        </p>
      </section>
    );
  if (!draft || !read)
    return (
      <p className="muted" role="status">
        Loading the dashboard…
      </p>
    );

  return (
    <ActionablesProvider>
      <section className="dashboard-page" aria-labelledby="dashboard-title">
        <DashboardHeader dashboard={draft} groups={groups}>
          <DashboardToolbar
            range={time.range}
            zone={prefs.timeZone}
            onRange={time.choose}
            onResetTime={time.moved && view ? () => time.follow(view.range) : undefined}
            canRefresh={!!view}
            onRefresh={refresh}
            live={live}
            paused={paused}
            onPaused={setPaused}
            edit={
              canWrite
                ? {
                    canAdd: read.ok,
                    dirty,
                    saving,
                    onAdd: () => setEditing({ kind: 'add' }),
                    onSettings: () => setEditing({ kind: 'settings' }),
                    onDiscard: discard,
                    onSave: () => void save(),
                  }
                : undefined
            }
          />
        </DashboardHeader>
        <DashboardStatus problem={problem} view={view} dirty={dirty} note={note} ranAt={ranAt} updatesEvery={live && !paused && moving ? live : undefined} zone={prefs.timeZone} />
        <DashboardVariablesBar variables={vars.variables} values={vars.values} onChange={() => setEditing({ kind: 'variables' })} />
        {!read.ok && (
          <div className="dashboard-problem" role="alert">
            <p>
              <strong>This dashboard cannot be drawn.</strong> {read.problem}
            </p>
            <p className="muted">It may have been made by another program. Its Data is kept as it is; export it from the dashboards list to look at it.</p>
          </div>
        )}
        {view && view.tiles.length === 0 && (
          <div className="empty dashboard-empty">
            <p>This dashboard has no tiles yet.</p>
            <p className="muted">
              Choose “Add tile”, or run a search on the <Link to="/search">search page</Link> and choose “Add to dashboard”: its results become a tile here.
            </p>
          </div>
        )}
        {view && view.tiles.length > 0 && (
          <DashboardGrid
            tiles={view.tiles}
            gutter={view.gutter}
            margin={view.margin}
            editable={canWrite}
            onSpans={(spans: Map<number, Span>) => {
              const changed = view.tiles.some((t) => {
                const s = spans.get(t.index);
                return s && (s.x !== t.span.x || s.y !== t.span.y || s.col !== t.span.col || s.row !== t.span.row);
              });
              if (changed) change(withSpans(draft.Data, spans));
            }}
            render={(t) => (
              <Tile
                tile={t}
                slot={
                  t.searchIndex === undefined
                    ? undefined
                    : (slots.get(t.searchIndex) ?? (vars.waiting && templateRef(view.searches[t.searchIndex]) ? { refreshing: false, waiting: vars.waiting } : undefined))
                }
                editable={canWrite}
                onZoom={time.zoom(t.searchIndex, !!view.linkZooming)}
                onConfirm={() => t.searchIndex !== undefined && confirm(t.searchIndex)}
                onSettings={() => setEditing({ kind: 'tile', tile: t })}
                onRemove={() => setEditing({ kind: 'remove', tile: t })}
              />
            )}
          />
        )}
        {editing?.kind === 'tile' && (
          <TileDialog
            tile={editing.tile}
            isChart={editing.tile.searchIndex !== undefined && slots.get(editing.tile.searchIndex)?.session?.renderer === 'chart'}
            onClose={() => setEditing(undefined)}
            onApply={(patch) => {
              change(withTile(draft.Data, editing.tile.index, patch));
              setEditing(undefined);
            }}
          />
        )}
        {editing?.kind === 'add' && (
          <AddTileDialog
            onClose={() => setEditing(undefined)}
            onAdd={(t) => {
              change(withNewTile(draft.Data, t));
              setEditing(undefined);
            }}
          />
        )}
        {blocker.state === 'blocked' && (
          <ConfirmDialog
            title="Leave without saving?"
            message="Your changes to this dashboard are not saved. Leave the page and lose them?"
            action="Leave"
            onClose={() => blocker.reset()}
            onConfirm={() => blocker.proceed()}
          />
        )}
        {editing?.kind === 'remove' && (
          <ConfirmDialog
            title="Remove tile"
            message={<>Remove “{editing.tile.title}” from the dashboard? Save to keep the change.</>}
            action="Remove"
            onClose={() => setEditing(undefined)}
            onConfirm={() => {
              change(withoutTile(draft.Data, editing.tile.index));
              setEditing(undefined);
            }}
          />
        )}
        {editing?.kind === 'settings' && (
          <SettingsDialog
            initial={{
              Name: draft.Name,
              Description: draft.Description ?? '',
              Labels: draft.Labels ?? [],
              liveUpdateInterval: view?.liveUpdateSeconds ?? 0,
              linkZooming: view?.linkZooming ?? false,
            }}
            current={time.range}
            zone={prefs.timeZone}
            onClose={() => setEditing(undefined)}
            onApply={(s) => {
              const data = read.ok ? withSettings(draft.Data, { liveUpdateInterval: s.liveUpdateInterval, linkZooming: s.linkZooming, range: s.range }) : draft.Data;
              change(data, { Name: s.Name, Description: s.Description, Labels: s.Labels });
              if (s.range) time.adopt();
              setEditing(undefined);
            }}
          />
        )}
        {editing?.kind === 'variables' && (
          <DashboardVariablesDialog
            variables={vars.variables}
            values={vars.values}
            onClose={() => setEditing(undefined)}
            onGive={(values) => {
              vars.give(values);
              setEditing(undefined);
            }}
          />
        )}
        {editing?.kind === 'conflict' && (
          <ConflictDialog
            saving={saving}
            onCancel={() => setEditing(undefined)}
            onReload={() => {
              setEditing(undefined);
              reloadSaved();
            }}
            onOverwrite={() => void save(true)}
          />
        )}
      </section>
    </ActionablesProvider>
  );
}
