import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Link, useBlocker, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useAuth } from '../auth/AuthContext';
import { ConfirmDialog, Dialog } from '../library/Dialog';
import { groupNames, useMyGroups } from '../library/useMyGroups';
import { usePrefs } from '../prefs/PrefsContext';
import { TimePicker } from '../search/TimePicker';
import { TimeRange } from '../search/time-range';
import { formatTime } from '../ui/time-format';
import { DashboardGrid } from './DashboardGrid';
import { AddTileDialog } from './AddTileDialog';
import { readDashboardData, searchesToRun, searchRange, Span, TileView, withNewTile, withoutTile, withSettings, withSpans, withTile } from './dashboard-data';
import { DashboardRunner, RunRequest, SearchSlot } from './dashboard-runner';
import { ConflictError, Dashboard, getDashboard, saveDashboard } from './dashboards-api';
import { SettingsDialog } from './SettingsDialog';
import { Tile } from './Tile';
import { TileDialog } from './TileDialog';
import './dashboards.css';

type Loaded = { dashboard: Dashboard; etag?: string };
type Editing = { kind: 'tile'; tile: TileView } | { kind: 'remove'; tile: TileView } | { kind: 'settings' } | { kind: 'add' } | { kind: 'conflict' };

const DEFAULT_RANGE: TimeRange = { kind: 'relative', preset: '1h' };
const NO_SLOTS: ReadonlyMap<number, SearchSlot> = new Map();
const noSubscribe = () => () => undefined;
const noSlots = () => NO_SLOTS;
/** Makes every answer still on its way (a load, a save) stale. */
const drop = (loads: { latest: number }) => void loads.latest++;

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
  const { groups } = useMyGroups();
  const [loaded, setLoaded] = useState<Loaded>();
  const [loadError, setLoadError] = useState<string>();
  const [draft, setDraft] = useState<Dashboard>();
  const [dirty, setDirty] = useState(false);
  const [editing, setEditing] = useState<Editing>();
  const [note, setNote] = useState<string>();
  /** a failed save or reload, in words; shown whatever else the status line says */
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [range, setRange] = useState<TimeRange>(DEFAULT_RANGE);
  const [chosen, setChosen] = useState(false);
  const [zoomed, setZoomed] = useState<ReadonlyMap<number, TimeRange>>(new Map());
  const [refreshes, setRefreshes] = useState(0);
  const [paused, setPaused] = useState(false);
  const [ranAt, setRanAt] = useState<Date>();

  // Each load (and save) answers only if nothing newer started since: a late answer for the
  // previous dashboard (the route's ref changed) or an earlier reload is dropped.
  const loads = useRef({ latest: 0 }).current;
  /**
   * Reads the dashboard. The first load of a ref shows a failure instead of the page; a reload
   * (Discard, Reload after a conflict) keeps the page and the changes, and says why in the alert
   * line. Resolves whether it worked.
   */
  const load = useCallback(
    async (first = false): Promise<boolean> => {
      const mine = ++loads.latest;
      try {
        const v = await getDashboard(ref);
        if (mine !== loads.latest) return false;
        setLoaded(v);
        setDraft(v.dashboard);
        setDirty(false);
        setLoadError(undefined);
        setProblem(undefined);
        setNote(undefined);
        const read = readDashboardData(v.dashboard.Data);
        setRange(read.ok && read.view.range ? read.view.range : DEFAULT_RANGE);
        setChosen(false);
        setZoomed(new Map());
        return true;
      } catch (err) {
        if (mine !== loads.latest) return false;
        const text = loadProblem(err as ApiError, ref);
        if (first) setLoadError(text);
        else setProblem(`Not reloaded: ${text}`);
        return false;
      }
    },
    [ref, loads],
  );
  useEffect(() => {
    // Another dashboard: nothing of the previous one stays.
    setLoaded(undefined);
    setDraft(undefined);
    setLoadError(undefined);
    setDirty(false);
    setNote(undefined);
    setProblem(undefined);
    setEditing(undefined);
    setPaused(false);
    void load(true);
    return () => drop(loads);
  }, [load, loads]);

  const read = useMemo(() => (draft ? readDashboardData(draft.Data) : undefined), [draft]);
  const view = read?.ok ? read.view : undefined;
  const mayWrite = !!draft && (draft.UID === user.UID || user.Admin);
  // A version the console does not edit (1, or unknown) is shown read-only, even to its owner.
  const canWrite = mayWrite && !view?.readOnly;

  // The searches: one runner per page; launched again when what they run changes.
  // Made in an effect (not a memo), so a remount in development gets a live one.
  const [runner, setRunner] = useState<DashboardRunner>();
  useEffect(() => {
    const r = new DashboardRunner();
    setRunner(r);
    const leave = () => r.dispose();
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      r.dispose();
    };
  }, []);
  const slots = useSyncExternalStore(runner?.subscribe ?? noSubscribe, runner?.getSnapshot ?? noSlots);
  const requests = useMemo<RunRequest[]>(() => {
    if (!view) return [];
    return searchesToRun(view).map((index) => {
      const search = view.searches[index]!;
      return { index, search, range: zoomed.get(index) ?? searchRange(search, range, chosen) };
    });
  }, [view, range, chosen, zoomed]);
  const runKey = JSON.stringify(requests.map((r) => [r.index, r.search, r.range]));
  const requestsRef = useRef(requests);
  requestsRef.current = requests;
  // What runs changed, or Refresh: launch again now (the runner cancels what this supersedes).
  useEffect(() => {
    if (!runner) return;
    runner.run(requests);
    setRanAt(new Date());
  }, [runner, runKey, refreshes]); // eslint-disable-line react-hooks/exhaustive-deps -- runKey stands for requests

  // Live updates, for ranges that move with time; a tick while a search still runs is skipped.
  const live = view?.liveUpdateSeconds;
  const moving = range.kind === 'relative' || !chosen;
  useEffect(() => {
    if (!live || paused || !moving || !runner) return;
    const t = setInterval(() => {
      if (runner.refresh(requestsRef.current)) setRanAt(new Date());
    }, live * 1000);
    return () => clearInterval(t);
  }, [live, paused, moving, runner]);

  // Leaving with unsaved changes asks first: within the console, and when the tab closes or reloads.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (dirtyRef.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  const change = (data: unknown, patch: Partial<Dashboard> = {}) => {
    setDraft((d) => (d ? { ...d, ...patch, Data: data } : d));
    setDirty(true);
    setNote(undefined);
  };

  const zoom = useCallback(
    (searchIndex: number | undefined) => (start: Date, end: Date) => {
      const r: TimeRange = { kind: 'absolute', start, end };
      if (view?.linkZooming || searchIndex === undefined) {
        setRange(r);
        setChosen(true);
        setZoomed(new Map());
      } else setZoomed((z) => new Map(z).set(searchIndex, r));
    },
    [view?.linkZooming],
  );

  async function save(overwrite = false) {
    if (!draft) return;
    const mine = loads.latest;
    setSaving(true);
    try {
      const v = await saveDashboard(draft, overwrite ? undefined : loaded?.etag);
      if (mine !== loads.latest) return;
      setLoaded(v);
      setDraft(v.dashboard);
      setDirty(false);
      setEditing(undefined);
      setProblem(undefined);
      setNote(`Saved at ${formatTime(new Date(), prefs.timeZone).slice(11, 19)}.`);
    } catch (err) {
      if (mine !== loads.latest) return;
      if (err instanceof ConflictError) setEditing({ kind: 'conflict' });
      else {
        // Out of the conflict dialog (Overwrite failed), onto the page: the changes stay.
        setEditing((e) => (e?.kind === 'conflict' ? undefined : e));
        setProblem(`Not saved: ${(err as Error).message}`);
      }
    } finally {
      setSaving(false);
    }
  }

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

  const resetZoom = chosen || zoomed.size > 0;
  return (
    <section className="dashboard-page" aria-labelledby="dashboard-title">
      <div className="dashboard-head">
        <div className="dashboard-name">
          <h1 id="dashboard-title">{draft.Name || 'Untitled dashboard'}</h1>
          {draft.Description && <p className="muted dashboard-desc">{draft.Description}</p>}
          <p className="muted dashboard-meta">{sharingText(draft, user.UID, groups)}</p>
        </div>
        <div className="toolbar dashboard-tools" role="toolbar" aria-label="Dashboard">
          <TimePicker
            value={range}
            zone={prefs.timeZone}
            onChange={(r) => {
              setRange(r);
              setChosen(true);
              setZoomed(new Map());
            }}
          />
          {resetZoom && view && (
            <button
              type="button"
              onClick={() => {
                setRange(view.range ?? DEFAULT_RANGE);
                setChosen(false);
                setZoomed(new Map());
              }}
            >
              Reset time
            </button>
          )}
          <button type="button" onClick={() => setRefreshes((n) => n + 1)} disabled={!view}>
            Refresh
          </button>
          {live && (
            <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>
              {paused ? 'Resume live update' : 'Pause live update'}
            </button>
          )}
          {canWrite && (
            <>
              <button type="button" onClick={() => setEditing({ kind: 'add' })} disabled={!read.ok}>
                Add tile
              </button>
              <button type="button" onClick={() => setEditing({ kind: 'settings' })}>
                Settings
              </button>
              <button type="button" onClick={() => void load()} disabled={!dirty || saving}>
                Discard changes
              </button>
              <button type="button" className="primary" onClick={() => void save()} disabled={!dirty || saving}>
                {saving ? 'Saving…' : 'Save'}
              </button>
            </>
          )}
        </div>
      </div>
      {problem && (
        <p className="error dashboard-alert" role="alert">
          {problem}
        </p>
      )}
      {view?.readOnly && (
        <p className="dashboard-readonly" role="note">
          {view.readOnly}
        </p>
      )}
      <p className="muted dashboard-status" role="status">
        {dirty ? 'Unsaved changes.' : note}
        {!dirty && !note && ranAt && view && view.tiles.length > 0 && (
          <>
            Ran at {formatTime(ranAt, prefs.timeZone).slice(11, 19)}
            {live && !paused && moving ? `; updates every ${live} s` : ''}
            {view.linkZooming ? '; drag across a chart to zoom every tile' : '; drag across a chart to zoom it'}.
          </>
        )}
      </p>
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
              slot={t.searchIndex === undefined ? undefined : slots.get(t.searchIndex)}
              editable={canWrite}
              onZoom={zoom(t.searchIndex)}
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
          current={range}
          zone={prefs.timeZone}
          onClose={() => setEditing(undefined)}
          onApply={(s) => {
            const data = read.ok ? withSettings(draft.Data, { liveUpdateInterval: s.liveUpdateInterval, linkZooming: s.linkZooming, range: s.range }) : draft.Data;
            change(data, { Name: s.Name, Description: s.Description, Labels: s.Labels });
            if (s.range) setChosen(false);
            setEditing(undefined);
          }}
        />
      )}
      {editing?.kind === 'conflict' && (
        <Dialog title="Someone else saved this dashboard" onClose={() => setEditing(undefined)}>
          <p>Since you opened it, the dashboard was changed and saved by someone else (or by you, in another window).</p>
          <p>
            <strong>Reload</strong> shows their version and drops your changes; <strong>Overwrite</strong> saves yours over theirs.
          </p>
          <div className="dialog-buttons">
            <button type="button" onClick={() => setEditing(undefined)} data-autofocus>
              Cancel
            </button>
            <button
              type="button"
              onClick={() => {
                setEditing(undefined);
                void load().then((ok) => ok && setNote('Reloaded: this is the version saved last.'));
              }}
            >
              Reload
            </button>
            <button type="button" className="danger" onClick={() => void save(true)} disabled={saving}>
              Overwrite
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}

/** The words for a dashboard that could not be read. */
function loadProblem(e: ApiError, ref: string): string {
  if (e.status === 404) return 'This dashboard does not exist, or it is not shared with you. Ask its owner to share it with one of your groups.';
  if (e.status === 400) return `“${ref}” is not a dashboard ID or GUID.`;
  return `The dashboard could not be read: ${e.message}`;
}

/** "Yours, shared with ops" / "Shared with you through ops" / "Global": who sees it, in words. */
function sharingText(d: Dashboard, uid: number, groups: Parameters<typeof groupNames>[1]): string {
  const names = groupNames(d.GIDs ?? [], groups);
  const reach = [d.Global ? 'everyone' : '', ...names].filter(Boolean);
  if (d.UID === uid) return reach.length ? `Yours, shared with ${reach.join(', ')}` : 'Yours, not shared';
  if (d.Global) return `Shared with everyone${names.length ? ` and ${names.join(', ')}` : ''}`;
  return reach.length ? `Shared with you through ${reach.join(', ')}` : 'Not shared with you: you see it as an administrator';
}
