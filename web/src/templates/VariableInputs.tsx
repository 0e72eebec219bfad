import { useId } from 'react';
import { TemplateVariable } from '../api/types';

/**
 * One field per variable, named after it: its label (else its name, such as %%IP%%), "required"
 * where a value must be given, its hint (description) under it, its default (or `initial`) filled in. Read back with
 * readVariableValues. Used to run a template and by a dashboard's variables.
 */
export function VariableInputs({ variables, initial }: { variables: readonly TemplateVariable[]; initial?: Readonly<Record<string, string>> }) {
  return (
    <>
      {variables.map((v, i) => (
        <VariableInput key={v.name} index={i} variable={v} value={initial?.[v.name] ?? v.defaultValue} autoFocus={i === 0} />
      ))}
    </>
  );
}

function VariableInput({ index, variable: v, value, autoFocus }: { index: number; variable: TemplateVariable; value: string; autoFocus: boolean }) {
  const hint = useId();
  return (
    <>
      <label>
        <span>
          {v.label || v.name}
          {v.required && <span className="required-mark"> (required)</span>}
        </span>
        <input
          name={`var-${index}`}
          className="mono"
          defaultValue={value}
          required={v.required}
          spellCheck={false}
          placeholder={v.previewValue ?? undefined}
          aria-describedby={v.description ? hint : undefined}
          data-autofocus={autoFocus || undefined}
        />
      </label>
      {v.description && (
        <span id={hint} className="muted small field-hint">
          {v.description}
        </span>
      )}
    </>
  );
}

/** The values typed, by variable name. */
export function readVariableValues(f: FormData, variables: readonly TemplateVariable[]): Record<string, string> {
  return Object.fromEntries(variables.map((v, i) => [v.name, String(f.get(`var-${i}`) ?? '')]));
}
