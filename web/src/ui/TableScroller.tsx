import { ReactNode } from 'react';

/**
 * Holds a list page's table. On a narrow screen a table wider than the window scrolls sideways
 * inside this box (its last columns, the row actions, are a swipe away), never the whole page;
 * on a wide one it changes nothing (the header row stays sticky as the page scrolls).
 */
export function TableScroller({ children }: { children: ReactNode }) {
  return <div className="table-scroller">{children}</div>;
}

/** A column heading: its words, or its words and a class (`num`: a column of numbers). */
export type Column = string | { label: string; className: string };

/**
 * A list page's table (`keeping-table`, in a TableScroller): its name (`label`), its column
 * headings, and its rows (`children`). `className` adds a page's own look.
 */
export function ListTable({ label, columns, className, children }: { label: string; columns: Column[]; className?: string; children: ReactNode }) {
  return (
    <TableScroller>
      <table className={className ? `keeping-table ${className}` : 'keeping-table'} aria-label={label}>
        <thead>
          <tr>
            {columns.map((c, i) =>
              typeof c === 'string' ? (
                <th key={i} scope="col">
                  {c}
                </th>
              ) : (
                <th key={i} scope="col" className={c.className}>
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroller>
  );
}
