import { lazy, Suspense, useState } from 'react';
import { SaveToLibrary } from '../library/SaveToLibrary';
import { SaveNoteDialog } from '../ui/SaveNoteDialog';
import type { ChartType, RendererOptions } from './results/chart-options';
import { SearchSession, SessionState } from './search-session';
import { TimeRange } from './time-range';

const AddToDashboard = lazy(async () => ({ default: (await import('../dashboards/AddToDashboard')).AddToDashboard }));

/**
 * What can be done with the search on screen. Keep the results (save), let it run without the
 * page (background); pages that keep searches add their actions here.
 */
export function SearchActions({
  session,
  state,
  chart,
  range,
}: {
  session: SearchSession;
  state: SessionState;
  /** the chart as drawn (a tile keeps its type and options) */
  chart?: { type: ChartType; options: RendererOptions };
  /** the range it ran over (a new dashboard takes it when it is relative) */
  range?: TimeRange;
}) {
  const [note, setNote] = useState<string>();
  /** the save dialog, while open (with the service's refusal, if any) */
  const [saving, setSaving] = useState<{ error?: string }>();
  const act = (what: () => Promise<unknown>, done: string) =>
    what().then(
      () => setNote(done),
      (err: Error) => setNote(`Failed: ${err.message}`),
    );
  if (state.phase === 'failed') return null;
  return (
    <div className="toolbar search-actions" role="toolbar" aria-label="Search actions">
      {state.phase === 'running' && (
        <button type="button" onClick={() => void act(() => session.background(), 'The search goes on in the background.')}>
          Send to background
        </button>
      )}
      <button type="button" onClick={() => setSaving({})}>
        Save results
      </button>
      {saving && (
        <SaveNoteDialog
          searchId={session.id}
          error={saving.error}
          onClose={() => setSaving(undefined)}
          onSave={(metadata) =>
            void session.save(metadata).then(
              () => {
                setSaving(undefined);
                setNote(metadata?.name ? `The results are saved as “${metadata.name}”.` : 'The results are saved.');
              },
              (err: Error) => setSaving({ error: `Could not save the results: ${err.message}` }),
            )
          }
        />
      )}
      <SaveToLibrary query={state.info.UserQuery} />
      <Suspense fallback={null}>
        <AddToDashboard source={{ query: state.info.UserQuery, renderer: session.renderer, chart, range: range ?? { kind: 'relative', preset: '1h' } }} />
      </Suspense>
      <span role="status" className="muted">
        {note}
      </span>
    </div>
  );
}
