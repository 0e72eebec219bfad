import { useMemo, useState } from 'react';
import { TableResult } from '../../api/types';
import { Matched } from '../../actionables/ValueActions';
import { usePrefs } from '../../prefs/PrefsContext';
import { DownloadLinks } from './DownloadLinks';
import { SortDir, sortRows, toTsv } from './table-sort';

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  throw new Error('The browser does not allow copying here (it needs HTTPS or localhost).');
}

/**
 * Rows without a single column: `table` with no column names shows the values the query extracts
 * (the product's "all enumerated values"), so a query that extracts none (`grep x | table`) has
 * rows and nothing to show in them. Said in words, not as empty pages.
 */
function NoColumns({ rows }: { rows: number }) {
  return (
    <p className="muted" role="status">
      The table has {rows.toLocaleString('en-US')} {rows === 1 ? 'row' : 'rows'} but no columns. Without column names, table shows the values the query extracts, and this query
      extracts none: name the columns (<code>table TIMESTAMP SRC DATA</code>), or extract values first (<code>kv</code>, <code>json</code>, <code>regex</code>…).
    </p>
  );
}

/** The table renderer: sortable columns, pages, copy, downloads (`compact`, a dashboard tile: no toolbar). */
export function TableView({ result, downloads, compact }: { result: TableResult; downloads: Array<{ format: string; href: string }>; compact?: boolean }) {
  const { prefs } = usePrefs();
  const [sort, setSort] = useState<{ col?: number; dir: SortDir }>({ dir: 'ascending' });
  const [page, setPage] = useState(0);
  const [copied, setCopied] = useState<string>();
  const rows = useMemo(() => sortRows(result.Rows, sort.col, sort.dir), [result, sort]);
  const size = prefs.pageSize;
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const shown = rows.slice(page * size, (page + 1) * size);
  const noColumns = result.Columns.length === 0 && rows.length > 0;

  const sortBy = (col: number) => {
    setSort((s) => ({ col, dir: s.col === col && s.dir === 'ascending' ? 'descending' : 'ascending' }));
    setPage(0);
  };
  const copy = () =>
    copyText(toTsv(result.Columns, rows)).then(
      () => setCopied(`Copied ${rows.length} rows.`),
      (err: Error) => setCopied(err.message),
    );

  return (
    <section className="table-view" aria-label="Table">
      {!compact && (
        <div className="toolbar" role="toolbar" aria-label="Table actions">
          <button type="button" onClick={() => void copy()}>
            Copy
          </button>
          <DownloadLinks links={downloads} />
          <span role="status" className="muted">
            {copied}
          </span>
        </div>
      )}
      {noColumns ? (
        <NoColumns rows={rows.length} />
      ) : (
        <div className="table-scroll">
          <table aria-label="Results" aria-rowcount={rows.length + 1}>
            <thead>
              <tr>
                {result.Columns.map((c, i) => (
                  <th key={`${c}-${i}`} scope="col" aria-sort={sort.col === i ? sort.dir : 'none'}>
                    <button type="button" className="sort" onClick={() => sortBy(i)}>
                      {c}
                      <span aria-hidden="true">{sort.col === i ? (sort.dir === 'ascending' ? ' ▲' : ' ▼') : ''}</span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((r, k) => (
                <tr key={page * size + k} aria-rowindex={page * size + k + 2}>
                  {r.Row.map((cell, i) => (
                    <td key={i}>
                      <Matched text={String(cell)} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length === 0 && <p className="muted">No rows.</p>}
      {pages > 1 && !noColumns && (
        <nav className="pager" aria-label="Table pages">
          <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous page
          </button>
          <span>
            Page {page + 1} of {pages} ({rows.length.toLocaleString('en-US')} rows)
          </span>
          <button type="button" disabled={page >= pages - 1} onClick={() => setPage(page + 1)}>
            Next page
          </button>
        </nav>
      )}
    </section>
  );
}
