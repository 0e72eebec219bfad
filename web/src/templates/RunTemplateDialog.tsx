import { useNavigate } from 'react-router';
import { Template } from '../api/types';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { searchLink } from '../ui/search-link';
import { VariableInputs, readVariableValues } from './VariableInputs';
import { fillTemplate } from './templates-api';

/**
 * "Run template": asks for each variable (its default filled in, the required ones marked), has
 * the service fill them into the query, and opens the search page running the result, as if the
 * person had typed it: it runs with their rights, like any query of theirs.
 */
export function RunTemplateDialog({ template, onClose }: { template: Template; onClose(): void }) {
  const navigate = useNavigate();
  const { error, busy, onSubmit } = useFormAction(act);
  const vars = template.Contents.variables;

  function act(f: FormData): FormWork {
    const values = readVariableValues(f, vars);
    const empty = vars.find((v) => v.required && !values[v.name].trim());
    if (empty) return `${empty.label || empty.name} is required.`;
    return async () => navigate(searchLink(await fillTemplate(template.ThingUUID, values), true));
  }

  return (
    <Dialog title={`Run “${template.Name}”`} onClose={onClose}>
      <form className="entry-form template-run" onSubmit={onSubmit}>
        {vars.length === 0 && <p className="muted">This template has no variables: it runs as it is.</p>}
        <VariableInputs variables={vars} />
        <FormFooter error={error} disabled={busy} submit={busy ? 'Starting…' : 'Run'} onCancel={onClose} autoFocus={vars.length ? undefined : 'submit'} />
      </form>
    </Dialog>
  );
}
