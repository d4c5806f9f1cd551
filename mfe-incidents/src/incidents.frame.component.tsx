import type { ReactNode } from 'react';

/** Case management below the shell's company header (the shell draws navigation and avatar). */
export function IncidentsFrame({ children }: { children: ReactNode }) {
  return <main className="wh-main">{children}</main>;
}
