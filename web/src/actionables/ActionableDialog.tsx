import { useId, useMemo, useState } from 'react';
import { Actionable, ActionableAction, ActionableInput, ActionableTrigger } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { parseLabels } from '../library/library-api';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { readSharing, SharingFields } from '../ui/SharingFields';
import { createActionable, updateActionable } from './actionables-api';
import { compilePattern, DEFAULT_PLACEHOLDER, offersFor, compileActionables } from './matching';
import './actionables.css';

type CommandType = ActionableAction['command']['type'];

const COMMANDS: Array<{ type: CommandType; label: string; reference: string; hint: string }> = [
  {
    type: 'query',
    label: 'Run a query',
    reference: 'Query',
    hint: 'The value stands where the placeholder is; the search covers the time range of the results the value came from.',
  },
  { type: 'url', label: 'Open a URL', reference: 'Address', hint: 'An http:// or https:// address; the value goes in URL-encoded.' },
  { type: 'dashboard', label: 'Launch a dashboard', reference: 'Dashboard GUID', hint: 'The GUID of the dashboard (its settings show it).' },
  { type: 'savedQuery', label: 'Run a saved query', reference: 'Library entry GUID', hint: 'The GUID of a library entry; its query runs as a query action’s does.' },
  {
    type: 'template',
    label: 'Execute a template',
    reference: 'Template GUID',
    hint: "The value fills the template's first variable (or the one named in the action's options); the others take their defaults.",
  },
];

const newTrigger = (): ActionableTrigger => ({ pattern: '', hyperlink: true, disabled: false });
const newAction = (): ActionableAction => ({ name: '', description: null, placeholder: null, command: { type: 'query', reference: '', options: {} } });

/**
 * Creates an actionable (no `actionable`) or edits one: its name, menu, triggers (patterns, each
 * tried on a test value as it is typed) and actions (a query, a link, a dashboard…), labels and
 * sharing. The service's refusal (a pattern it cannot read, one that could take exponential time,
 * a dashboard named other than by GUID) is shown in its words. Fields of the product's content
 * this form does not show (time variables, options) are kept as they were.
 */
export function ActionableDialog({
  title,
  actionable,
  admin,
  onSaved,
  onClose,
}: {
  title: string;
  actionable?: Actionable;
  admin?: boolean;
  onSaved(name: string): void;
  onClose(): void;
}) {
  const { user } = useAuth();
  const { error, busy, onSubmit } = useFormAction(act);
  const [triggers, setTriggers] = useState<ActionableTrigger[]>(() => (actionable?.Contents.triggers.length ? actionable.Contents.triggers : [newTrigger()]));
  const [actions, setActions] = useState<ActionableAction[]>(() => (actionable?.Contents.actions.length ? actionable.Contents.actions : [newAction()]));
  const [sample, setSample] = useState('');
  const labelsHint = useId();
  const sampleHint = useId();

  const setTrigger = (i: number, t: Partial<ActionableTrigger>) => setTriggers((all) => all.map((x, j) => (j === i ? { ...x, ...t } : x)));
  const setAction = (i: number, a: Partial<ActionableAction>) => setActions((all) => all.map((x, j) => (j === i ? { ...x, ...a } : x)));
  const setCommand = (i: number, c: Partial<ActionableAction['command']>) => setActions((all) => all.map((x, j) => (j === i ? { ...x, command: { ...x.command, ...c } } : x)));

  function act(f: FormData): FormWork {
    const sharing = readSharing(f, user.Admin);
    const kept = {
      triggers: triggers.filter((t) => t.pattern.trim()),
      actions: actions.filter((a) => a.name.trim() || a.command.reference.trim()),
    };
    const input: ActionableInput = {
      Name: String(f.get('name') ?? '').trim(),
      Description: String(f.get('description') ?? ''),
      Contents: { ...(actionable?.Contents ?? {}), menuLabel: String(f.get('menu') ?? '').trim() || null, ...kept },
      Labels: parseLabels(String(f.get('labels') ?? '')),
      GIDs: sharing.gids,
      Disabled: f.get('disabled') === 'on',
    };
    if (sharing.global !== undefined) input.Global = sharing.global;
    if (!input.Name) return 'Give the actionable a name.';
    if (!kept.triggers.length) return 'Add a trigger: a pattern that finds the values it acts on.';
    if (!kept.actions.length) return 'Add an action.';
    const nameless = kept.actions.findIndex((a) => !a.name.trim());
    if (nameless >= 0) return `Action ${actions.indexOf(kept.actions[nameless]) + 1} needs a name: it is what the menu shows.`;
    return async () => {
      if (actionable) await updateActionable(actionable, input, admin);
      else await createActionable(input);
      onSaved(input.Name);
    };
  }

  return (
    <Dialog title={title} onClose={onClose} wide>
      <form className="entry-form actionable-form" onSubmit={onSubmit}>
        <label>
          Name
          <input name="name" defaultValue={actionable?.Name ?? ''} required maxLength={256} data-autofocus />
        </label>
        <label>
          Description
          <textarea name="description" defaultValue={actionable?.Description ?? ''} rows={2} />
        </label>
        <label>
          Menu label
          <input name="menu" defaultValue={actionable?.Contents.menuLabel ?? ''} maxLength={256} placeholder="(its name)" />
        </label>
        <fieldset>
          <legend>Triggers</legend>
          <p className="muted small">Regular expressions (RE2, as in queries) over values in results. A capture group, if any, is the value the actions get.</p>
          <label>
            Test value
            <input value={sample} onChange={(e) => setSample(e.target.value)} aria-describedby={sampleHint} spellCheck={false} className="mono" />
          </label>
          <span id={sampleHint} className="muted small field-hint">
            Type a value to see which triggers find what in it.
          </span>
          {triggers.map((t, i) => (
            <div className="part" key={i}>
              <div className="part-row">
                <label>
                  Pattern
                  <input
                    className="mono"
                    value={t.pattern}
                    onChange={(e) => setTrigger(i, { pattern: e.target.value })}
                    aria-label={`Trigger ${i + 1} pattern`}
                    spellCheck={false}
                    maxLength={1024}
                  />
                </label>
                <label className="check">
                  <input type="checkbox" checked={t.hyperlink} onChange={(e) => setTrigger(i, { hyperlink: e.target.checked })} aria-label={`Trigger ${i + 1}: offer on a click`} />{' '}
                  On a click
                </label>
                <label className="check">
                  <input type="checkbox" checked={t.disabled} onChange={(e) => setTrigger(i, { disabled: e.target.checked })} aria-label={`Trigger ${i + 1}: disabled`} /> Disabled
                </label>
                <button type="button" onClick={() => setTriggers((all) => all.filter((_, j) => j !== i))} aria-label={`Remove trigger ${i + 1}`}>
                  Remove
                </button>
              </div>
              <TriggerTest pattern={t.pattern} sample={sample} />
            </div>
          ))}
          <div>
            <button type="button" onClick={() => setTriggers((all) => [...all, newTrigger()])} disabled={triggers.length >= 64}>
              Add trigger
            </button>
          </div>
        </fieldset>
        <fieldset>
          <legend>Actions</legend>
          {actions.map((a, i) => {
            const cmd = COMMANDS.find((c) => c.type === a.command.type) ?? COMMANDS[0];
            return (
              <div className="part" key={i}>
                <div className="part-row">
                  <label>
                    Action name
                    <input value={a.name} onChange={(e) => setAction(i, { name: e.target.value })} aria-label={`Action ${i + 1} name`} maxLength={256} />
                  </label>
                  <label>
                    Does
                    <select value={a.command.type} onChange={(e) => setCommand(i, { type: e.target.value as CommandType })} aria-label={`Action ${i + 1} does`}>
                      {COMMANDS.map((c) => (
                        <option key={c.type} value={c.type}>
                          {c.label}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button type="button" onClick={() => setActions((all) => all.filter((_, j) => j !== i))} aria-label={`Remove action ${i + 1}`}>
                    Remove
                  </button>
                </div>
                <label>
                  {cmd.reference}
                  {a.command.type === 'query' ? (
                    <textarea
                      className="mono"
                      rows={2}
                      value={a.command.reference}
                      onChange={(e) => setCommand(i, { reference: e.target.value })}
                      aria-label={`Action ${i + 1} ${cmd.reference.toLowerCase()}`}
                      spellCheck={false}
                    />
                  ) : (
                    <input
                      className="mono"
                      value={a.command.reference}
                      onChange={(e) => setCommand(i, { reference: e.target.value })}
                      aria-label={`Action ${i + 1} ${cmd.reference.toLowerCase()}`}
                      spellCheck={false}
                    />
                  )}
                </label>
                <span className="muted small field-hint">
                  {cmd.hint} The value replaces {a.placeholder || DEFAULT_PLACEHOLDER}.
                </span>
                <div className="part-row">
                  <label>
                    Placeholder
                    <input
                      className="mono"
                      value={a.placeholder ?? ''}
                      placeholder={DEFAULT_PLACEHOLDER}
                      onChange={(e) => setAction(i, { placeholder: e.target.value || null })}
                      aria-label={`Action ${i + 1} placeholder`}
                      maxLength={64}
                    />
                  </label>
                  <label>
                    Description
                    <input value={a.description ?? ''} onChange={(e) => setAction(i, { description: e.target.value || null })} aria-label={`Action ${i + 1} description`} />
                  </label>
                </div>
              </div>
            );
          })}
          <div>
            <button type="button" onClick={() => setActions((all) => [...all, newAction()])} disabled={actions.length >= 64}>
              Add action
            </button>
          </div>
        </fieldset>
        <label>
          Labels
          <input name="labels" defaultValue={(actionable?.Labels ?? []).join(', ')} aria-describedby={labelsHint} />
          <span id={labelsHint} className="muted small">
            Separate labels with commas.
          </span>
        </label>
        <label className="check">
          <input type="checkbox" name="disabled" defaultChecked={actionable?.Disabled ?? false} /> Disabled (its menus do not show)
        </label>
        <SharingFields gids={actionable?.GIDs} global={actionable?.Global} alone="the actionable is yours alone" />
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : 'Save'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** What one pattern finds in the test value, as the results will (or why this browser cannot run it). */
function TriggerTest({ pattern, sample }: { pattern: string; sample: string }) {
  const outcome = useMemo(() => {
    if (!pattern.trim() || !sample) return undefined;
    if (!compilePattern(pattern)) return 'This browser cannot run the pattern as written; the results will not offer it.';
    const probe = compileActionables([
      {
        Name: 'probe',
        Disabled: false,
        Contents: { menuLabel: null, triggers: [{ pattern, hyperlink: true, disabled: false }], actions: [newAction()] },
      } as Actionable,
    ]);
    const offer = offersFor(probe, sample, true)[0];
    return offer ? `Matches; the value is “${offer.value}”.` : 'No match.';
  }, [pattern, sample]);
  if (!outcome) return null;
  return (
    <p className="trigger-test muted" role="status">
      {outcome}
    </p>
  );
}
