import { ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * The navigation bar. On a wide screen its links stand in the header; on a narrow one (styles.css,
 * 760 px and less) they fold into a "Menu" button that opens them as a list under the header,
 * and closes again on a link followed, Escape, or a tap elsewhere.
 */
export function MainNav({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div className={open ? 'main-nav open' : 'main-nav'} ref={ref}>
      <button type="button" className="menu-button" aria-expanded={open} aria-controls="main-nav" onClick={() => setOpen(!open)}>
        <span aria-hidden="true">☰</span> Menu
      </button>
      <nav id="main-nav" aria-label="Main">
        {children}
      </nav>
    </div>
  );
}
