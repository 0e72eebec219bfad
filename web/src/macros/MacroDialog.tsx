import { useId } from 'react';
import { Macro, MacroInput } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { parseLabels } from '../library/library-api';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { readSharing, SharingFields } from '../ui/SharingFields';
import { createMacro, updateMacro } from './macros-api';
import './macros.css';

/**
 * Creates a macro (no `macro`) or edits one: name, description, expansion, labels, the groups it
 * is shared with, and (administrators) global. The service's refusal (a bad name, a taken name) is
 * shown as it says it.
 */
export function MacroDialog({ title, macro, onSaved, onClose }: { title: string; macro?: Macro; onSaved(name: string): void; onClose(): void }) {
  const { user } = useAuth();
  const { error, busy, onSubmit } = useFormAction(act);
  const nameHint = useId();
  const expansionHint = useId();
  const labelsHint = useId();

  function act(f: FormData): FormWork {
    const sharing = readSharing(f, user.Admin);
    const input: MacroInput = {
      // A leading `$` is how the person sees the macro used; the name itself is without it.
      Name: String(f.get('name') ?? '')
        .trim()
        .replace(/^\$/, ''),
      Description: String(f.get('description') ?? ''),
      Expansion: String(f.get('expansion') ?? ''),
      Labels: parseLabels(String(f.get('labels') ?? '')),
      GIDs: sharing.gids,
    };
    if (sharing.global !== undefined) input.Global = sharing.global;
    if (!input.Name) return 'Give the macro a name.';
    if (!input.Expansion.trim()) return 'The expansion is empty.';
    return async () => {
      if (macro) await updateMacro(macro, input);
      else await createMacro(input);
      onSaved(input.Name);
    };
  }

  // The hints of the name and the expansion stand after their fields, outside the labels, so each
  // field's name is its label alone ("Name", "Expansion") and the hint its description.
  return (
    <Dialog title={title} onClose={onClose} wide>
      <form className="entry-form macro-form" onSubmit={onSubmit}>
        <label>
          Name
          <input
            name="name"
            className="mono"
            defaultValue={macro?.Name ?? ''}
            required
            maxLength={129}
            spellCheck={false}
            autoCapitalize="characters"
            aria-describedby={nameHint}
            data-autofocus
          />
        </label>
        <span id={nameHint} className="muted small field-hint">
          Upper-case letters A–Z, digits, _ and -, starting with a letter or digit. A query uses it as $NAME.
        </span>
        <label>
          Description
          <textarea name="description" defaultValue={macro?.Description ?? ''} rows={2} />
        </label>
        <label>
          Expansion
          <textarea name="expansion" className="mono" defaultValue={macro?.Expansion ?? ''} rows={3} required spellCheck={false} aria-describedby={expansionHint} />
        </label>
        <span id={expansionHint} className="muted small field-hint">
          The text $NAME stands for. %%1%%, %%2%%… take the arguments of $NAME(a, b).
        </span>
        <label>
          Labels
          <input name="labels" defaultValue={(macro?.Labels ?? []).join(', ')} aria-describedby={labelsHint} />
          <span id={labelsHint} className="muted small">
            Separate labels with commas.
          </span>
        </label>
        <SharingFields gids={macro?.GIDs} global={macro?.Global} alone="the macro is yours alone" />
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : 'Save'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
