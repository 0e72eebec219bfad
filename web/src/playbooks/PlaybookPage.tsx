import { useDeferredValue, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Playbook, PlaybookInput } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { createFile, nameFromFile, parseLabels } from '../files/files-api';
import { usePrefs } from '../prefs/PrefsContext';
import { TimePicker } from '../search/TimePicker';
import { TimeRange } from '../search/time-range';
import { ErrorNote } from '../ui/ErrorNote';
import { readSharing, SharingFields } from '../ui/SharingFields';
import { useCancellable } from '../ui/useCancellable';
import { EmbeddedQuery } from './EmbeddedQuery';
import { imageMarkdown } from './markdown';
import { MarkdownView } from './Markdown';
import { createPlaybook, decodeBody, encodeBody, getPlaybook, shareAttachments, updatePlaybook } from './playbooks-api';
import './playbooks.css';

const DEFAULT_RANGE: TimeRange = { kind: 'relative', preset: '1h' };

/** Reads the playbook of the route (`:id`, a UUID or GUID). */
function usePlaybook(id: string | undefined): { playbook?: Playbook; error?: string } {
  const [got, setGot] = useState<{ playbook?: Playbook; error?: string }>({});
  useCancellable(
    () => (id ? getPlaybook(id) : undefined),
    { answer: (playbook) => setGot({ playbook }), error: (err) => setGot({ error: `The playbook could not be read: ${err.message}` }) },
    [id],
  );
  return got;
}

/** The markdown drawn with its queries, each run in place over `range`. */
function Rendered({ markdown, range, foreign }: { markdown: string; range: TimeRange; foreign: boolean }) {
  return (
    <div className="playbook-body">
      <MarkdownView markdown={markdown} query={(text, index) => <EmbeddedQuery key={`${index}:${text}`} query={text} index={index} range={range} foreign={foreign} />} />
    </div>
  );
}

/** One playbook, to read and to run its queries; its owner (or an administrator) may edit it. */
export function PlaybookPage() {
  const { id } = useParams();
  const { user } = useAuth();
  const { prefs } = usePrefs();
  const { playbook, error } = usePlaybook(id);
  const [range, setRange] = useState<TimeRange>(DEFAULT_RANGE);
  if (error)
    return (
      <section className="playbook-page">
        <Link to="/playbooks">← Playbooks</Link>
        <ErrorNote message={error} />
      </section>
    );
  if (!playbook)
    return (
      <p className="muted" role="status">
        Loading the playbook…
      </p>
    );
  return (
    <article className="playbook-page" aria-labelledby="playbook-title">
      <Link to="/playbooks">← Playbooks</Link>
      <div className="page-head">
        <h1 id="playbook-title">{playbook.Name}</h1>
        <div className="toolbar">
          <TimePicker value={range} onChange={setRange} zone={prefs.timeZone} />
          {playbook.Can.Modify && (
            <Link className="button primary" to={`/playbooks/${playbook.UUID}/edit`}>
              Edit
            </Link>
          )}
        </div>
      </div>
      {(playbook.Desc || playbook.Author.Name || playbook.Labels) && (
        <p className="muted playbook-meta">
          {[playbook.Desc, playbook.Author.Name && `By ${playbook.Author.Name}.`, playbook.Labels && `Labels: ${playbook.Labels.join(', ')}`].filter(Boolean).join(' · ')}
        </p>
      )}
      <Rendered markdown={decodeBody(playbook.Body)} range={range} foreign={playbook.UID !== user.UID} />
    </article>
  );
}

const STARTER = '# Investigation\n\nWhat this playbook is for.\n\n```\ntag=* count\n```\n';

/** Writes a new playbook (`/playbooks/new`) or edits one (`/playbooks/:id/edit`): details, markdown with a live preview, images. */
export function PlaybookEditPage() {
  const { id } = useParams();
  const { playbook, error } = usePlaybook(id);
  if (id && error)
    return (
      <section className="playbook-page">
        <Link to="/playbooks">← Playbooks</Link>
        <ErrorNote message={error} />
      </section>
    );
  if (id && !playbook)
    return (
      <p className="muted" role="status">
        Loading the playbook…
      </p>
    );
  return <Editor key={playbook?.UUID ?? 'new'} playbook={playbook} />;
}

function Editor({ playbook }: { playbook?: Playbook }) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const [markdown, setMarkdown] = useState(() => (playbook ? decodeBody(playbook.Body) : STARTER));
  const preview = useDeferredValue(markdown);
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);

  /** Puts `text` where the cursor is (replacing a selection), on lines of its own. */
  function insert(text: string) {
    const ta = area.current!;
    const [a, b] = [ta.selectionStart, ta.selectionEnd];
    const before = markdown.slice(0, a);
    const block = `${before && !before.endsWith('\n\n') ? (before.endsWith('\n') ? '\n' : '\n\n') : ''}${text}\n`;
    setMarkdown(before + block + markdown.slice(b));
    requestAnimationFrame(() => {
      ta.focus();
      ta.selectionStart = ta.selectionEnd = a + block.length;
    });
  }

  function sharing() {
    return readSharing(new FormData(form.current!), user.Admin);
  }

  async function attach(file: File) {
    setError(undefined);
    setNote(`Uploading ${file.name}…`);
    try {
      const { gids, global } = sharing();
      const f = await createFile(file, {
        Name: nameFromFile(file.name) || 'image',
        Desc: 'An image in a playbook',
        Labels: ['playbook'],
        GIDs: gids,
        ...(global ? { Global: true } : {}),
      });
      insert(imageMarkdown(f.GUID, file.name.replace(/\.[^.]+$/, '')));
      setNote(`Attached ${f.Name} (a user file, shared like the playbook).`);
    } catch (err) {
      setNote(undefined);
      setError(`The image could not be attached: ${(err as Error).message}`);
    }
  }

  async function save(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const { gids, global } = sharing();
    const input: PlaybookInput = {
      Name: String(f.get('name') ?? '').trim(),
      Desc: String(f.get('desc') ?? ''),
      Body: encodeBody(markdown),
      Labels: parseLabels(String(f.get('labels') ?? '')),
      GIDs: gids,
      ...(global !== undefined && { Global: global }),
    };
    if (!input.Name) return setError('Give the playbook a name.');
    setBusy(true);
    setError(undefined);
    try {
      const uuid = playbook ? (await updatePlaybook(playbook.UUID, input)).UUID : await createPlaybook(input);
      await shareAttachments(markdown, user.UID, gids, global === true).catch(() => undefined);
      void navigate(`/playbooks/${uuid}`);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  const title = playbook ? `Edit ${playbook.Name}` : 'New playbook';
  return (
    <section className="playbook-page playbook-editor" aria-labelledby="playbook-edit-title">
      <Link to={playbook ? `/playbooks/${playbook.UUID}` : '/playbooks'}>← {playbook ? playbook.Name : 'Playbooks'}</Link>
      <h1 id="playbook-edit-title">{title}</h1>
      <form ref={form} className="entry-form playbook-form" onSubmit={(e) => void save(e)}>
        <div className="playbook-details">
          <label>
            Name
            <input name="name" defaultValue={playbook?.Name ?? ''} required maxLength={256} data-autofocus />
          </label>
          <label>
            Description
            <input name="desc" defaultValue={playbook?.Desc ?? ''} />
          </label>
          <label>
            Labels
            <input name="labels" defaultValue={(playbook?.Labels ?? []).join(', ')} placeholder="comma-separated" />
          </label>
          <SharingFields gids={playbook?.GIDs} global={playbook?.Global} alone="the playbook is yours alone" />
        </div>
        <div className="playbook-panes">
          <div className="playbook-source">
            <div className="toolbar" role="toolbar" aria-label="Insert">
              <button type="button" onClick={() => insert('```\ntag=* count\n```')}>
                Add query
              </button>
              <label className="button">
                Attach image
                <input
                  type="file"
                  accept="image/*"
                  className="visually-hidden"
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    e.target.value = '';
                    if (file) void attach(file);
                  }}
                />
              </label>
            </div>
            <label className="playbook-markdown">
              Markdown
              <textarea ref={area} name="markdown" className="mono" value={markdown} onChange={(e) => setMarkdown(e.target.value)} spellCheck={false} rows={18} />
            </label>
            <p className="muted small">
              Every code block (```…``` or indented four spaces) is a query with a Run button. HTML is shown as text; &lt;pre&gt;…&lt;/pre&gt; keeps text as typed.
            </p>
          </div>
          <section className="playbook-preview" aria-label="Preview">
            <h2 className="small muted">Preview</h2>
            <Rendered markdown={preview} range={DEFAULT_RANGE} foreign={false} />
          </section>
        </div>
        <p role="status" className="muted">
          {note}
        </p>
        <ErrorNote message={error} />
        <div className="toolbar form-buttons">
          <button type="button" onClick={() => void navigate(playbook ? `/playbooks/${playbook.UUID}` : '/playbooks')}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </section>
  );
}
