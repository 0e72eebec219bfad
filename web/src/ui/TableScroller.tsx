import { ReactNode } from 'react';

/**
 * Holds a list page's table. On a narrow screen a table wider than the window scrolls sideways
 * inside this box (its last columns, the row actions, are a swipe away), never the whole page;
 * on a wide one it changes nothing (the header row stays sticky as the page scrolls).
 */
export function TableScroller({ children }: { children: ReactNode }) {
  return <div className="table-scroller">{children}</div>;
}
