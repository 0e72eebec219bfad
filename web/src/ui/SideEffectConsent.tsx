import { ReactNode } from 'react';
import { SideEffect } from '../api/types';

/**
 * What a query the person did not write would change, and "Run it anyway": nothing runs until they
 * press it (README, "Queries written by someone else"). `why` says where the query comes from;
 * `refusal` is the service's own words, shown when the side effects could not be listed.
 */
export function SideEffectConsent({
  why,
  effects,
  refusal,
  onRun,
  compact,
  children,
}: {
  why: string;
  effects: SideEffect[];
  refusal?: string;
  onRun(): void;
  /** in a dashboard tile */
  compact?: boolean;
  /** more words (e.g. that editing it and running it by hand also works) */
  children?: ReactNode;
}) {
  return (
    <section className={compact ? 'side-effects compact' : 'side-effects'} aria-label="What this query would change">
      <p>
        <strong>{why}</strong> It runs as you, and it would change your data:
      </p>
      {effects.length > 0 ? (
        <ul>
          {effects.map((e, i) => (
            <li key={i}>
              <code>{e.Module}</code> {e.Effect}
            </li>
          ))}
        </ul>
      ) : (
        <p>{refusal}</p>
      )}
      {children}
      <p className="side-effects-actions">
        <button type="button" className="primary" onClick={onRun}>
          Run it anyway
        </button>
      </p>
    </section>
  );
}
