import { useState } from 'react';
import { SaveToLibrary } from '../library/SaveToLibrary';
import { SearchSession, SessionState } from './search-session';

/**
 * What can be done with the search on screen. Keep the results (save), let it run without the
 * page (background); pages that keep searches add their actions here.
 */
export function SearchActions({ session, state }: { session: SearchSession; state: SessionState }) {
  const [note, setNote] = useState<string>();
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
      <button type="button" onClick={() => void act(() => session.save(), 'The results are saved.')}>
        Save results
      </button>
      <SaveToLibrary query={state.info.UserQuery} />
      <span role="status" className="muted">
        {note}
      </span>
    </div>
  );
}
