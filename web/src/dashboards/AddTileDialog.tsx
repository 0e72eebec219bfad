import { FormEvent, useState } from 'react';
import { api } from '../api/client';
import { LibraryEntry, ParseResponse } from '../api/types';
import { Dialog, FormFooter } from '../ui/Dialog';
import { listLibrary } from '../library/library-api';
import { useCancellable } from '../ui/useCancellable';

export interface NewTile {
  title: string;
  query: string;
  renderer: string;
}

/**
 * A new tile from a query typed here or taken from the library. The service parses it first:
 * a query it refuses is shown with its words, and the tile draws what the query renders.
 */
export function AddTileDialog({ onAdd, onClose }: { onAdd(t: NewTile): void; onClose(): void }) {
  const [library, setLibrary] = useState<LibraryEntry[]>();
  const [query, setQuery] = useState('');
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useCancellable(() => listLibrary(), { answer: (l) => setLibrary([...l].sort((a, b) => a.Name.localeCompare(b.Name))), error: () => setLibrary([]) }, []);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    if (!title.trim()) return setError('Give the tile a title.');
    if (!query.trim()) return setError('Type a query, or pick one from the library.');
    setBusy(true);
    setError(undefined);
    try {
      const parsed = await api<ParseResponse>('/api/parse', { method: 'POST', json: { SearchString: query } });
      if (!parsed.GoodQuery) throw new Error(`The query has an error: ${parsed.ParseError ?? 'it cannot be parsed'}`);
      onAdd({ title: title.trim(), query, renderer: parsed.RenderModule || 'text' });
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  return (
    <Dialog title="Add a tile" onClose={onClose} wide>
      <form className="entry-form" onSubmit={submit}>
        <label>
          Title
          <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} data-autofocus />
        </label>
        {library && library.length > 0 && (
          <label>
            From the library
            <select
              value=""
              onChange={(e) => {
                const entry = library.find((l) => l.ThingUUID === e.target.value);
                if (!entry) return;
                setQuery(entry.Query);
                if (!title.trim()) setTitle(entry.Name);
              }}
            >
              <option value="">Choose an entry…</option>
              {library.map((l) => (
                <option key={l.ThingUUID} value={l.ThingUUID}>
                  {l.Name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Query
          <textarea
            className="mono"
            rows={3}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            spellCheck={false}
            placeholder="tag=web kv status | count by status | table"
          />
        </label>
        <p className="muted small">The tile draws what the query renders (table, chart, number card, …) over the dashboard's time range.</p>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Checking…' : 'Add tile'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
