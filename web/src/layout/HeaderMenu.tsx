import { ReactNode, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * A disclosure menu of the header (a `<details>`): opens on its summary, closes on Escape, on a
 * click elsewhere and when the page changes, so a followed link never leaves it hanging open.
 */
export function HeaderMenu({ className, summary, summaryLabel, children }: { className: string; summary: ReactNode; summaryLabel?: string; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [pathname]);
  useEffect(() => {
    const close = (e: Event) => {
      const el = ref.current;
      if (!el?.open) return;
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !el.contains(e.target as Node)) el.open = false;
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, []);
  return (
    <details className={className} ref={ref}>
      <summary aria-label={summaryLabel}>{summary}</summary>
      {children}
    </details>
  );
}
