import { TemplateVariable } from '../api/types';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import '../templates/templates.css';
import { readVariableValues, VariableInputs } from '../templates/VariableInputs';

/** The values the dashboard's templates run with, on one line, and the button to give or change them. */
export function DashboardVariablesBar({ variables, values, onChange }: { variables: TemplateVariable[]; values?: Record<string, string>; onChange(): void }) {
  if (!variables.length) return null;
  return (
    <div className="dashboard-variables" role="group" aria-label="Dashboard variables">
      <span className="muted">Variables:</span>
      {values ? (
        variables.map((v) => (
          <span key={v.name} className="dashboard-variable">
            {v.label || v.name} = <code>{values[v.name] || '(empty)'}</code>
          </span>
        ))
      ) : (
        <span className="muted">not given yet</span>
      )}
      <button type="button" onClick={onChange}>
        {values ? 'Change variables' : 'Give variables'}
      </button>
    </div>
  );
}

/** "Dashboard variables": one field per variable of the templates its tiles run (defaults filled in, the required ones marked). */
export function DashboardVariablesDialog({
  variables,
  values,
  onGive,
  onClose,
}: {
  variables: TemplateVariable[];
  values?: Record<string, string>;
  onGive(values: Record<string, string>): void;
  onClose(): void;
}) {
  const { error, busy, onSubmit } = useFormAction(act);
  function act(f: FormData): FormWork {
    const given = readVariableValues(f, variables);
    const empty = variables.find((v) => v.required && !given[v.name].trim());
    if (empty) return `${empty.label || empty.name} is required.`;
    return async () => onGive(given);
  }
  return (
    <Dialog title="Dashboard variables" onClose={onClose}>
      <form className="entry-form template-run" onSubmit={onSubmit}>
        <p className="muted">This dashboard’s tiles run templates. Give the values of their variables; you can change them later.</p>
        <VariableInputs variables={variables} initial={values} />
        <FormFooter error={error} disabled={busy} submit="Run" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
