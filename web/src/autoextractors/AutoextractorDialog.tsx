import { useId, useRef, useState } from 'react';
import { Autoextractor, AutoextractorInput, AxTestResult } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { parseLabels } from '../library/library-api';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { ErrorNote } from '../ui/ErrorNote';
import { readSharing, SharingFields } from '../ui/SharingFields';
import { useCancellable } from '../ui/useCancellable';
import { createAutoextractor, listEngines, PARAMS_HINT, parseTags, testAutoextractor, updateAutoextractor } from './autoextractors-api';

/** The engines before the list is read (the service's own list replaces them). */
const KNOWN_ENGINES = ['csv', 'fields', 'regex', 'json', 'kv', 'syslog', 'cef', 'xml'];

/**
 * Creates an autoextractor (no `ax`) or edits one: tags, module, parameters, options, name,
 * description, labels, sharing. The test pane tries the definition as it stands in the form on a
 * pasted sample (POST /api/autoextractors/test) and shows what each line gives, or the module's
 * refusal in its words.
 */
export function AutoextractorDialog({ title, ax, onSaved, onClose }: { title: string; ax?: Autoextractor; onSaved(name: string): void; onClose(): void }) {
  const { user } = useAuth();
  const { error, busy, onSubmit } = useFormAction(act);
  const form = useRef<HTMLFormElement>(null);
  const [engines, setEngines] = useState<string[]>(KNOWN_ENGINES);
  const [engine, setEngine] = useState(ax?.Module ?? 'json');
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<{ result?: AxTestResult; error?: string }>();
  const tagsHint = useId();
  const paramsHint = useId();
  const argsHint = useId();
  const sampleHint = useId();

  useCancellable(() => listEngines(), { answer: (list) => setEngines(list.length ? list : KNOWN_ENGINES) }, []);

  function read(f: FormData): AutoextractorInput {
    const sharing = readSharing(f, user.Admin);
    const input: AutoextractorInput = {
      Tags: parseTags(String(f.get('tags') ?? '')),
      Name: String(f.get('name') ?? '').trim(),
      Desc: String(f.get('desc') ?? ''),
      Module: String(f.get('module') ?? ''),
      Params: String(f.get('params') ?? ''),
      Args: String(f.get('args') ?? '').trim(),
      Labels: parseLabels(String(f.get('labels') ?? '')),
      GIDs: sharing.gids,
    };
    if (sharing.global !== undefined) input.Global = sharing.global;
    return input;
  }

  function act(f: FormData): FormWork {
    const input = read(f);
    if (!input.Tags.length) return 'Name the tag (or tags) it extracts.';
    if (!input.Params.trim()) return 'The parameters are empty.';
    return async () => {
      if (ax) await updateAutoextractor(ax, input);
      else await createAutoextractor(input);
      onSaved(input.Name || input.Tags.join(', '));
    };
  }

  async function test() {
    const f = new FormData(form.current!);
    const input = read(f);
    const sample = String(f.get('sample') ?? '');
    if (!input.Tags.length) input.Tags = ['sample'];
    setTesting(true);
    try {
      setTested({ result: await testAutoextractor(input, sample, ax?.UUID) });
    } catch (err) {
      setTested({ error: (err as Error).message });
    } finally {
      setTesting(false);
    }
  }

  const result = tested?.result;
  return (
    <Dialog title={title} onClose={onClose} wide>
      <form ref={form} className="entry-form ax-form" onSubmit={onSubmit}>
        <label>
          Tags
          <input
            name="tags"
            className="mono"
            defaultValue={(ax?.Tags ?? []).join(', ')}
            required
            spellCheck={false}
            autoCapitalize="off"
            aria-describedby={tagsHint}
            data-autofocus
          />
        </label>
        <span id={tagsHint} className="muted small field-hint">
          The tags whose entries it reads, separated by commas. You may have one extractor per tag.
        </span>
        <label>
          Module
          <select name="module" value={engine} onChange={(e) => setEngine(e.target.value)}>
            {[...new Set([...engines, engine])].map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </label>
        <label>
          Parameters
          <textarea name="params" className="mono" defaultValue={ax?.Params ?? ''} rows={3} required spellCheck={false} aria-describedby={paramsHint} />
        </label>
        <span id={paramsHint} className="muted small field-hint">
          {PARAMS_HINT[engine] ?? 'The module’s arguments.'}
        </span>
        <label>
          Options
          <input name="args" className="mono" defaultValue={ax?.Args ?? ''} spellCheck={false} autoCapitalize="off" aria-describedby={argsHint} />
        </label>
        <span id={argsHint} className="muted small field-hint">
          The module’s flags, as after its name in a query (fields: -d &quot;|&quot; -q). Not -e: it always reads the whole entry.
        </span>
        <label>
          Name
          <input name="name" defaultValue={ax?.Name ?? ''} maxLength={256} />
        </label>
        <label>
          Description
          <textarea name="desc" defaultValue={ax?.Desc ?? ''} rows={2} />
        </label>
        <label>
          Labels
          <input name="labels" defaultValue={(ax?.Labels ?? []).join(', ')} />
        </label>
        <SharingFields gids={ax?.GIDs} global={ax?.Global} alone="the extractor is yours alone" />
        <fieldset className="ax-test">
          <legend>Try it</legend>
          <label>
            Sample
            <textarea name="sample" className="mono" rows={4} spellCheck={false} aria-describedby={sampleHint} />
          </label>
          <span id={sampleHint} className="muted small field-hint">
            Paste a few entries, one a line, and test the extractor as it stands in this form.
          </span>
          <div>
            <button type="button" onClick={() => void test()} disabled={testing}>
              {testing ? 'Testing…' : 'Test'}
            </button>
          </div>
          <ErrorNote message={tested?.error} />
          {result && (
            <div className="ax-results" aria-live="polite">
              <p>
                Extracts <strong>{result.Fields.length}</strong> field{result.Fields.length === 1 ? '' : 's'}:{' '}
                {result.Fields.map((f) => (
                  <code key={f}>{f}</code>
                ))}
                {result.TagExists && !ax && <span className="ax-warning"> You already have an extractor for one of these tags: saving will be refused.</span>}
              </p>
              {result.Results.length > 0 && (
                <table className="ax-results-table" aria-label="Extracted fields">
                  <thead>
                    <tr>
                      <th scope="col">Line</th>
                      <th scope="col">Fields</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.Results.map((r, i) => (
                      <tr key={i}>
                        <th scope="row" className="mono ax-line">
                          {r.Data}
                        </th>
                        <td>
                          {r.Matched ? (
                            <dl className="ax-fields">
                              {Object.entries(r.Fields).map(([k, v]) => (
                                <div key={k}>
                                  <dt>{k}</dt>
                                  <dd className="mono">{v}</dd>
                                </div>
                              ))}
                            </dl>
                          ) : (
                            <span className="muted">No match: ax drops this entry.</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          )}
        </fieldset>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : 'Save'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
