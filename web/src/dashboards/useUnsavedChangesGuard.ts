import { useEffect, useRef } from 'react';
import { Blocker, useBlocker } from 'react-router';

/**
 * Leaving with unsaved changes asks first: within the console (the returned blocker is 'blocked'
 * until the page proceeds or resets it), and when the tab closes or reloads (the browser asks).
 */
export function useUnsavedChangesGuard(dirty: boolean): Blocker {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (dirtyRef.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);
  return blocker;
}
