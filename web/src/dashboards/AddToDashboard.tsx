import { useState } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../auth/AuthContext';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { useCancellable } from '../ui/useCancellable';
import type { ChartType, RendererOptions } from '../search/results/chart-options';
import { TimeRange } from '../search/time-range';
import { emptyData, readDashboardData, withNewTile } from './dashboard-data';
import { ConflictError, createDashboard, Dashboard, getDashboard, listDashboards, saveDashboard } from './dashboards-api';

export interface TileSource {
  query: string;
  /** the search's render module */
  renderer: string;
  chart?: { type: ChartType; options: RendererOptions };
  range: TimeRange;
}

const NEW = 'new';

/** The tile's renderer: a chart's type names it ('line', 'bar', …), other renderers their module. */
function tileRenderer(src: TileSource): { renderer: string; rendererOptions: RendererOptions } {
  if (src.renderer === 'chart' && src.chart) return { renderer: src.chart.type, rendererOptions: src.chart.options };
  return { renderer: src.renderer, rendererOptions: {} };
}

/** Appends the tile, saving with the version just read; if someone saved in between, reads again and retries. */
async function addTo(id: number, tile: Parameters<typeof withNewTile>[1]): Promise<Dashboard> {
  for (let attempt = 0; ; attempt++) {
    const { dashboard, etag } = await getDashboard(id);
    try {
      return (await saveDashboard({ ...dashboard, Data: withNewTile(dashboard.Data, tile) }, etag)).dashboard;
    } catch (err) {
      if (!(err instanceof ConflictError) || attempt >= 2) throw err;
    }
  }
}

/** "Add to dashboard": the search on screen becomes a tile of a dashboard the person may change, or of a new one. */
/** Dashboards the console can add a tile to: readable, and of a version it edits (not read-only). */
function editable(d: Dashboard): boolean {
  const r = readDashboardData(d.Data);
  return r.ok && !r.view.readOnly;
}

export function AddToDashboard({ source }: { source: TileSource }) {
  const [open, setOpen] = useState(false);
  const [added, setAdded] = useState<{ id: number; name: string }>();
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} disabled={!source.query.trim()}>
        Add to dashboard
      </button>
      {added && (
        <span role="status" className="muted">
          Added to <Link to={`/dashboards/${added.id}`}>{added.name}</Link>.
        </span>
      )}
      {open && (
        <AddDialog
          source={source}
          onClose={() => setOpen(false)}
          onAdded={(a) => {
            setOpen(false);
            setAdded(a);
          }}
        />
      )}
    </>
  );
}

function AddDialog({ source, onClose, onAdded }: { source: TileSource; onClose(): void; onAdded(a: { id: number; name: string }): void }) {
  const { user } = useAuth();
  const [list, setList] = useState<Dashboard[]>();
  const [choice, setChoice] = useState(NEW);
  const { error, setError, busy, onSubmit } = useFormAction(act);
  useCancellable(
    () => listDashboards(),
    {
      answer: (l) => {
        const mine = l.filter((d) => (d.UID === user.UID || user.Admin) && editable(d)).sort((a, b) => a.Name.localeCompare(b.Name));
        setList(mine);
        if (mine.length) setChoice(String(mine[0].ID));
      },
      error: (err) => {
        setList([]);
        setError(`Your dashboards could not be read: ${err.message}`);
      },
    },
    [user.UID, user.Admin],
  );

  function act(f: FormData): FormWork {
    const title = String(f.get('title') ?? '').trim();
    if (!title) return 'Give the tile a title.';
    const tile = { title, query: source.query, ...tileRenderer(source) };
    return async () => {
      if (choice === NEW) {
        const name = String(f.get('name') ?? '').trim();
        if (!name) throw new Error('Give the new dashboard a name.');
        const base = emptyData(source.range.kind === 'relative' ? source.range : undefined);
        const id = await createDashboard({ Name: name, Description: '', GIDs: [], Labels: [], Data: withNewTile(base, tile) });
        onAdded({ id, name });
      } else {
        const d = await addTo(Number(choice), tile);
        onAdded({ id: d.ID, name: d.Name });
      }
    };
  }

  return (
    <Dialog title="Add to dashboard" onClose={onClose}>
      <form className="entry-form" onSubmit={onSubmit}>
        <label>
          Dashboard
          <select value={choice} onChange={(e) => setChoice(e.target.value)} disabled={list === undefined}>
            {(list ?? []).map((d) => (
              <option key={d.ID} value={String(d.ID)}>
                {d.Name}
              </option>
            ))}
            <option value={NEW}>New dashboard…</option>
          </select>
        </label>
        {choice === NEW && (
          <label>
            Name of the new dashboard
            <input name="name" maxLength={256} />
          </label>
        )}
        <label>
          Tile title
          <input name="title" maxLength={200} defaultValue={source.query.length > 60 ? `${source.query.slice(0, 57)}…` : source.query} data-autofocus />
        </label>
        <p className="muted small">
          The tile shows this search with its {source.renderer === 'chart' && source.chart ? `${source.chart.type} chart` : `${source.renderer} results`}, over the dashboard's time
          range.
        </p>
        <FormFooter error={error} disabled={busy || list === undefined} submit={busy ? 'Adding…' : 'Add'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
