import { FormEvent, ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import './keeping.css';
import { ErrorNote } from './ErrorNote';

/**
 * A modal dialog on the browser's own <dialog>: the page behind it is inert, Tab stays inside,
 * Escape closes it, and focus goes back where it was. The element marked `data-autofocus` (else
 * the first control) receives focus when it opens.
 */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose(): void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useLayoutEffect(() => {
    const d = ref.current!;
    const before = document.activeElement as HTMLElement | null;
    if (!d.open) d.showModal();
    d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (d.open) d.close();
      if (before?.isConnected) before.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/**
 * The end of a dialog's form: the refusal in words (an alert), then Cancel and the submit button.
 * `autoFocus` names the button that takes focus when the dialog opens (else the first field).
 */
export function FormFooter({
  error,
  disabled,
  submit,
  onCancel,
  autoFocus,
}: {
  error?: string;
  disabled?: boolean;
  submit: ReactNode;
  onCancel(): void;
  autoFocus?: 'cancel' | 'submit';
}) {
  return (
    <>
      <ErrorNote message={error} />
      <div className="dialog-buttons">
        <button type="button" onClick={onCancel} data-autofocus={autoFocus === 'cancel' || undefined}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={disabled} data-autofocus={autoFocus === 'submit' || undefined}>
          {submit}
        </button>
      </div>
    </>
  );
}

interface ConfirmProps {
  title: string;
  message: ReactNode;
  action: string;
  onClose(): void;
  tone?: 'danger' | 'primary';
}

/**
 * "Delete X?" with the API's refusal shown in the dialog. The action's button is red (`danger`)
 * unless the action undoes nothing the person would miss (`tone: 'primary'`, e.g. allowing sign-in).
 */
export function ConfirmDialog({
  title,
  message,
  action,
  onConfirm,
  onClose,
  error,
  busy,
  tone = 'danger',
}: ConfirmProps & {
  onConfirm(): void;
  error?: string;
  busy?: boolean;
}) {
  return (
    <Dialog title={title} onClose={onClose}>
      <p>{message}</p>
      <ActionFooter error={error} action={action} tone={tone} busy={busy} onAction={onConfirm} onCancel={onClose} />
    </Dialog>
  );
}

/**
 * A ConfirmDialog that takes the action itself: `run` does it; while it runs the button waits
 * (saying `busyAction` if given), a refusal is shown in the dialog (which stays open), and once it
 * is done `onDone` gets what `run` answered.
 */
export function ActionDialog<T>({ run, onDone, busyAction, action, ...rest }: ConfirmProps & { run(): Promise<T>; onDone(result: T): void; busyAction?: string }) {
  const [state, setState] = useState<{ busy?: boolean; error?: string }>({});
  async function confirm() {
    setState({ busy: true });
    let result: T;
    try {
      result = await run();
    } catch (err) {
      return setState({ error: (err as Error).message });
    }
    onDone(result);
  }
  return <ConfirmDialog {...rest} action={state.busy && busyAction ? busyAction : action} error={state.error} busy={state.busy} onConfirm={() => void confirm()} />;
}

/**
 * The end of a dialog that asks before it acts: the refusal in words, then Cancel (which takes
 * focus) and the action's button, red (`danger`) or `primary`, waiting while `busy`.
 */
export function ActionFooter({
  error,
  action,
  tone = 'danger',
  busy,
  onAction,
  onCancel,
}: {
  error?: string;
  action: ReactNode;
  tone?: 'danger' | 'primary';
  busy?: boolean;
  onAction(): void;
  onCancel(): void;
}) {
  return (
    <>
      <ErrorNote message={error} />
      <div className="dialog-buttons">
        <button type="button" onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button type="button" className={tone} onClick={onAction} disabled={busy}>
          {action}
        </button>
      </div>
    </>
  );
}

/** What a dialog's form asks for once read: a refusal in words, or the work to do. */
export type FormWork = string | (() => Promise<unknown>);

/**
 * A dialog form's submit. `act` reads the form and answers a refusal (shown at once, nothing is
 * sent) or the work to do; while the work runs the dialog is `busy`, and if it fails the refusal
 * (`failure` of the error, else its message) is shown and the form may be sent again. On success
 * the work itself closes the dialog (its onSaved).
 */
export function useFormAction(act: (form: FormData) => FormWork, failure: (err: unknown) => string = (err) => (err as Error).message) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function submit(form: HTMLFormElement) {
    const work = act(new FormData(form));
    if (typeof work === 'string') return setError(work);
    setError(undefined);
    setBusy(true);
    try {
      await work();
    } catch (err) {
      setError(failure(err));
      setBusy(false);
    }
  }
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    e.stopPropagation();
    void submit(e.currentTarget);
  };
  return { error, setError, busy, onSubmit };
}
