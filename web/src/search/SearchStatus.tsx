import { formatBytes, formatCount, formatDuration } from '../ui/time-format';
import { SessionState } from './search-session';

/** How far a search is: progress while it runs, the outcome when it ends, failures in words. */
export function SearchStatus({ state, now }: { state: SessionState; now: number }) {
  const s = state.stats;
  const n = s?.EntryCount ?? 0;
  const results = `${formatCount(n)} result${n === 1 ? '' : 's'}`;
  // Once finished, the search's own duration (also for one opened again later, not the time to reopen it).
  const elapsed = formatDuration(state.took ?? Math.max(0, (state.endedAt ?? now) - state.launchedAt));
  if (state.phase === 'failed') {
    return (
      <p className="error search-error" role="alert">
        The search failed: {state.error}
      </p>
    );
  }
  if (state.phase === 'running') {
    const start = Date.parse(state.info.StartRange);
    const end = Date.parse(state.info.EndRange);
    const pos = s ? Date.parse(s.SearchPosition) : NaN;
    // Scans go newest first: the share of the range behind the position is done.
    const done = pos > start && pos < end ? (end - pos) / (end - start) : undefined;
    return (
      <div className="search-status" role="status">
        <progress aria-label="Search progress" max={1} value={done} />
        <span>
          Searching… {formatCount(s?.EntriesScanned ?? 0)} entries scanned{s?.BytesScanned ? ` (${formatBytes(s.BytesScanned)})` : ''}, {results}, {elapsed}
          {done !== undefined ? `, ${Math.round(done * 100)}% of the time range` : ''}
        </span>
      </div>
    );
  }
  return (
    <p className="search-status" role="status">
      {state.phase === 'stopped' ? `Stopped: ${results} (the search did not finish)` : `${results} in ${elapsed}`}
      {s?.EntriesScanned ? `, ${formatCount(s.EntriesScanned)} ${s.EntriesScanned === 1 ? 'entry' : 'entries'} scanned` : ''}
      {s?.OverLimit ? '. The results were cut at the storage limit.' : ''}
    </p>
  );
}
