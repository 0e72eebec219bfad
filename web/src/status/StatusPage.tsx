import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useAuth } from '../auth/AuthContext';
import '../ui/keeping.css';
import { usePrefs } from '../prefs/PrefsContext';
import { formatBytes, formatCount, formatTime } from '../ui/time-format';
import { Link, LiveStats } from './live-stats';
import { components, healthy, IndexerStats, indexerRows, SysInfo } from './status-model';
import './status.css';
import { ListTable } from '../ui/TableScroller';
import { ErrorNote } from '../ui/ErrorNote';

/** Server status: the components and their health, the machines, and the indexers' figures, live. */
export function StatusPage() {
  const { onSignOut } = useAuth();
  const [live] = useState(() => new LiveStats());
  useEffect(() => {
    live.start();
    // Signing out ends the session, and the service closes its sockets: leave first, quietly.
    const off = onSignOut(() => live.dispose());
    return () => {
      off();
      live.dispose();
    };
  }, [live, onSignOut]);
  const { data, link, error } = useSyncExternalStore(live.subscribe, live.getSnapshot);
  const { prefs } = usePrefs();
  const rows = useMemo(() => indexerRows(data), [data]);
  const comps = useMemo(() => components(data.ping), [data.ping]);

  return (
    <section className="keeping-page status-page" aria-labelledby="status-title">
      <h1 id="status-title">Server status</h1>
      <p className="muted intro">
        The web server and its indexers: whether they answer, what they run on, and what they hold.
        {data.updated ? ` Figures of ${formatTime(new Date(data.updated), prefs.timeZone).slice(11, 19)}.` : ''}
      </p>
      <LinkState link={link} onReconnect={() => live.reconnect()} />
      <ErrorNote message={error} />

      <h2>Components</h2>
      {!data.ping && !error && <p className="muted">Asking the components…</p>}
      {data.ping && (
        <ul className="status-cards" aria-label="Components">
          {comps.map((c) => (
            <li key={c.name} className={healthy(c.state) ? 'status-card ok' : 'status-card bad'}>
              <span className="status-dot" aria-hidden="true" />
              <span className="status-name">{c.name === 'webserver' ? 'Web server' : c.name}</span>
              <span className="status-state">{c.state}</span>
            </li>
          ))}
        </ul>
      )}

      <h2>Indexers</h2>
      {data.idxStats && rows.length === 0 && <p className="empty">No indexers are configured.</p>}
      {rows.length > 0 && (
        <ListTable
          className="status-table"
          label="Indexers"
          columns={['Indexer', 'State', 'Entries', 'Stored', 'Partitions', 'Oldest – newest partition', 'Ingest rate', 'Ingested since start']}
        >
          {rows.map((r) => (
            <tr key={r.name}>
              <th scope="row" className="entry-name">
                <span>{r.name}</span>
                {r.error && <span className="desc error-text">{r.error}</span>}
              </th>
              <td className={healthy(r.state) ? 'nowrap state-ok' : 'nowrap state-bad'}>{r.state}</td>
              <td className="num" title={r.estimated ? 'Large partitions are counted by PostgreSQL’s estimate' : undefined}>
                {r.estimated ? '≈ ' : ''}
                {formatCount(r.entries)}
              </td>
              <td className="num">{formatBytes(r.bytes)}</td>
              <td className="num">{formatCount(r.partitions)}</td>
              <td className="nowrap">{r.oldest ? (r.oldest === r.newest ? r.oldest : `${r.oldest} – ${r.newest}`) : '—'}</td>
              <td className="num">{r.entriesPerSecond === undefined ? '—' : `${formatRate(r.entriesPerSecond)} entries/s, ${formatBytes(Math.round(r.bytesPerSecond ?? 0))}/s`}</td>
              <td className="num">{r.ingested === undefined ? '—' : formatCount(r.ingested)}</td>
            </tr>
          ))}
        </ListTable>
      )}

      {rows.map((r) => (
        <Partitions key={r.name} name={r.name} stats={data.idxStats?.[r.name]} />
      ))}

      <h2>Machines</h2>
      {!data.sysDesc && !error && <p className="muted">Reading the system descriptions…</p>}
      {data.sysDesc && (
        <div className="status-machines">
          {Object.entries(data.sysDesc)
            .sort(([a], [b]) => (a === 'webserver' ? -1 : b === 'webserver' ? 1 : a.localeCompare(b)))
            .map(([name, s]) => (
              <Machine key={name} name={name} info={s} />
            ))}
        </div>
      )}
    </section>
  );
}

/** An indexer's day partitions, per well, behind a disclosure. */
function Partitions({ name, stats }: { name: string; stats?: IndexerStats }) {
  const wells = (stats?.IndexStats ?? []).filter((w) => (w.Stats ?? []).length > 0);
  if (!wells.length) return null;
  return (
    <details className="status-partitions">
      <summary>Partitions of {name}</summary>
      {wells.map((w) => (
        <ListTable key={w.Name} className="status-table" label={`Partitions of ${name}, well ${w.Name}`} columns={[`Partition (${w.Name})`, 'Entries', 'Stored']}>
          {[...(w.Stats ?? [])]
            .sort((a, b) => b.ID.localeCompare(a.ID))
            .map((p) => (
              <tr key={p.ID}>
                <th scope="row">{p.ID}</th>
                <td className="num">
                  {p.Estimated ? '≈ ' : ''}
                  {formatCount(p.Entries)}
                </td>
                <td className="num">{formatBytes(p.Data)}</td>
              </tr>
            ))}
        </ListTable>
      ))}
    </details>
  );
}

function formatRate(n: number): string {
  return n >= 100 ? formatCount(Math.round(n)) : n.toFixed(n >= 10 ? 1 : 2);
}

function Machine({ name, info }: { name: string; info: SysInfo }) {
  const title = name === 'webserver' ? 'Web server' : name;
  const facts: Array<[string, string | undefined]> = [
    ['System', info.SystemVersion],
    ['CPU', info.CPUModel ? `${info.CPUCount ?? '?'} × ${info.CPUModel}` : info.CPUCount ? `${info.CPUCount} CPUs` : undefined],
    ['Clock', info.CPUMhz && Number(info.CPUMhz) > 0 ? `${info.CPUMhz} MHz` : undefined],
    ['Cache', info.CPUCache || undefined],
    ['Memory', info.TotalMemoryMB ? formatBytes(info.TotalMemoryMB * 1024 * 1024) : undefined],
    ['Virtualisation', info.VirtRole ? `${info.VirtRole}${info.VirtSystem ? ` (${info.VirtSystem})` : ''}` : undefined],
  ];
  return (
    <section className="status-machine" aria-label={`Machine ${title}`}>
      <h3>{title}</h3>
      {info.Error && <p className="muted small">{info.Error}</p>}
      <dl>
        {facts
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
    </section>
  );
}

/** "Live" or why not, with when it tries again and a button to try now. */
function LinkState({ link, onReconnect }: { link: Link; onReconnect(): void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (link.kind !== 'down') return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [link.kind]);
  if (link.kind === 'live')
    return (
      <p className="link-state live" role="status">
        <span className="status-dot" aria-hidden="true" /> Live: updates every 2 seconds
      </p>
    );
  if (link.kind === 'connecting')
    return (
      <p className="link-state" role="status">
        Connecting for live updates…
      </p>
    );
  const wait = link.kind === 'down' && link.retryAt ? Math.max(0, Math.ceil((link.retryAt - now) / 1000)) : undefined;
  return (
    <div className="link-state down" role="status">
      <p>
        <strong>Live updates stopped.</strong> {link.message}{' '}
        {link.kind === 'down' && (
          <>
            {wait !== undefined && `Reconnecting in ${wait} s. `}
            {link.polling && 'Meanwhile the figures refresh every 5 seconds.'}
          </>
        )}
      </p>
      {link.kind === 'down' && (
        <button type="button" onClick={onReconnect}>
          Reconnect now
        </button>
      )}
    </div>
  );
}
