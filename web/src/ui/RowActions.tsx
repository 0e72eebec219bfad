import { ButtonHTMLAttributes, ReactNode } from 'react';

/**
 * A list row's actions (a labelled group) and, when some are not the person's to take, why, in
 * words under them: a disabled button's tooltip alone says nothing on a touch screen.
 */
export function RowActions({ label, why, children }: { label: string; why?: string; children: ReactNode }) {
  return (
    <>
      <div className="row-actions" role="group" aria-label={`Actions for ${label}`}>
        {children}
      </div>
      {why && <p className="row-why muted">{why}</p>}
    </>
  );
}

/**
 * A row's button that may be unavailable to this person: `unavailable` says why, and the button
 * is then disabled with that reason as its tooltip (and so its accessible description).
 */
export function RowButton({ unavailable, disabled, title, ...rest }: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & { unavailable?: string }) {
  return <button type="button" {...rest} disabled={disabled || !!unavailable} title={unavailable ?? title} />;
}
