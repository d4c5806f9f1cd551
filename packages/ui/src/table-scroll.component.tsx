import type { ReactNode } from 'react';

export interface TableScrollProps {
  /** What the table holds (e.g. its caption): the name a screen reader announces for the scrolling region. */
  label: string;
  children: ReactNode;
}

/**
 * A wide table's frame: it scrolls sideways inside its card instead of pushing the page wider than the window. The
 * region is focusable (a labelled `region` in the tab order), so keyboard users scroll it with the arrow keys.
 */
export function TableScroll({ label, children }: TableScrollProps) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard
    <div className="wh-table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
