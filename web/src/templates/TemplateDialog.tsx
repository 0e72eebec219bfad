import { useId, useState } from 'react';
import { Template, TemplateInput, TemplateVariable } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { parseLabels } from '../library/library-api';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { readSharing, SharingFields } from '../ui/SharingFields';
import { blankVariable, createTemplate, updateTemplate, variablesFromQuery } from './templates-api';
import './templates.css';

/**
 * Creates a template (no `template`; `draft` fills a new one, as "Save as template" does) or edits
 * one: name, description, the query, its variables (each: the text standing for it in the query,
 * a label, a hint, required, a default and an example value), labels and sharing. The service's
 * refusal (a bad variable name, too many variables) is shown as it says it.
 */
export function TemplateDialog({
  title,
  template,
  draft,
  onSaved,
  onClose,
}: {
  title: string;
  template?: Template;
  draft?: { query: string };
  onSaved(saved: Template): void;
  onClose(): void;
}) {
  const { user } = useAuth();
  const [query, setQuery] = useState(template?.Contents.query ?? draft?.query ?? '');
  const [variables, setVariables] = useState<TemplateVariable[]>(() => template?.Contents.variables ?? (draft ? variablesFromQuery(draft.query) : []));
  const { error, busy, onSubmit } = useFormAction(act);
  const queryHint = useId();
  const labelsHint = useId();

  const change = (i: number, patch: Partial<TemplateVariable>) => setVariables((vs) => vs.map((v, j) => (j === i ? { ...v, ...patch } : v)));

  function act(f: FormData): FormWork {
    const sharing = readSharing(f, user.Admin);
    const vars = variables.map((v) => ({ ...v, name: v.name.trim(), previewValue: v.previewValue || null }));
    const input: TemplateInput = {
      Name: String(f.get('name') ?? '').trim(),
      Description: String(f.get('description') ?? ''),
      Contents: { query, variables: vars },
      Labels: parseLabels(String(f.get('labels') ?? '')),
      GIDs: sharing.gids,
    };
    if (sharing.global !== undefined) input.Global = sharing.global;
    if (!input.Name) return 'Give the template a name.';
    if (!query.trim()) return 'The query is empty.';
    const unnamed = vars.findIndex((v) => !v.name);
    if (unnamed >= 0) return `Variable ${unnamed + 1} has no name: write the text that stands for it in the query, such as %%IP%%.`;
    const spaced = vars.find((v) => /\s/.test(v.name));
    if (spaced) return `The variable name “${spaced.name}” has spaces; a name is written in the query as one word, such as %%IP%%.`;
    const twice = vars.find((v, i) => vars.findIndex((w) => w.name === v.name) !== i);
    if (twice) return `Two variables are named ${twice.name}.`;
    return async () => onSaved(template ? await updateTemplate(template, input) : await createTemplate(input));
  }

  const missing = variablesFromQuery(query, variables).length > variables.length;
  return (
    <Dialog title={title} onClose={onClose} wide>
      <form className="entry-form template-form" onSubmit={onSubmit}>
        <label>
          Name
          <input name="name" defaultValue={template?.Name ?? ''} required maxLength={256} data-autofocus />
        </label>
        <label>
          Description
          <textarea name="description" defaultValue={template?.Description ?? ''} rows={2} />
        </label>
        <label>
          Query
          <textarea name="query" className="mono" value={query} onChange={(e) => setQuery(e.target.value)} rows={4} required spellCheck={false} aria-describedby={queryHint} />
        </label>
        <span id={queryHint} className="muted small field-hint">
          Write each variable into the query as %%NAME%%; running the template replaces it with the value given.
        </span>
        <fieldset className="template-variables">
          <legend>Variables</legend>
          {variables.length === 0 && <p className="muted small">No variables: the template runs as it is.</p>}
          {variables.map((v, i) => (
            <VariableFields key={i} index={i} variable={v} onChange={(patch) => change(i, patch)} onRemove={() => setVariables((vs) => vs.filter((_, j) => j !== i))} />
          ))}
          <div className="toolbar">
            <button type="button" onClick={() => setVariables((vs) => [...vs, blankVariable()])}>
              Add variable
            </button>
            <button type="button" onClick={() => setVariables((vs) => variablesFromQuery(query, vs))} disabled={!missing}>
              Add the %%NAME%% of the query
            </button>
          </div>
        </fieldset>
        <label>
          Labels
          <input name="labels" defaultValue={(template?.Labels ?? []).join(', ')} aria-describedby={labelsHint} />
          <span id={labelsHint} className="muted small">
            Separate labels with commas.
          </span>
        </label>
        <SharingFields gids={template?.GIDs} global={template?.Global} alone="the template is yours alone" />
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : 'Save'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** One variable's fields, named after its position ("Variable 2 name"), so each is found by its label alone. */
function VariableFields({
  index,
  variable: v,
  onChange,
  onRemove,
}: {
  index: number;
  variable: TemplateVariable;
  onChange(patch: Partial<TemplateVariable>): void;
  onRemove(): void;
}) {
  const n = index + 1;
  return (
    <fieldset className="template-variable">
      <legend>Variable {n}</legend>
      <div className="variable-grid">
        <label>
          Name in the query
          <input
            className="mono"
            value={v.name}
            onChange={(e) => onChange({ name: e.target.value })}
            maxLength={128}
            spellCheck={false}
            aria-label={`Variable ${n} name in the query`}
            placeholder="%%NAME%%"
          />
        </label>
        <label>
          Label
          <input value={v.label} onChange={(e) => onChange({ label: e.target.value })} aria-label={`Variable ${n} label`} />
        </label>
        <label>
          Hint
          <input value={v.description} onChange={(e) => onChange({ description: e.target.value })} aria-label={`Variable ${n} hint`} />
        </label>
        <label>
          Default value
          <input value={v.defaultValue} onChange={(e) => onChange({ defaultValue: e.target.value })} aria-label={`Variable ${n} default value`} />
        </label>
        <label>
          Example value
          <input value={v.previewValue ?? ''} onChange={(e) => onChange({ previewValue: e.target.value })} aria-label={`Variable ${n} example value`} />
        </label>
      </div>
      <div className="variable-foot">
        <label className="check">
          <input type="checkbox" checked={v.required} onChange={(e) => onChange({ required: e.target.checked })} aria-label={`Variable ${n} require a value`} />
          Require a value
        </label>
        <button type="button" onClick={onRemove} aria-label={`Remove variable ${n}`}>
          Remove
        </button>
      </div>
    </fieldset>
  );
}
