import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import './staff-frame.css';

export interface StaffNavigationLink {
  to: string;
  label: string;
}

export interface StaffFrameProps {
  /** Side navigation of an area with several pages (settings): its accessible name and links. */
  sidebar?: { label: string; links: readonly StaffNavigationLink[] };
  /**
   * The full width of the window, for pages of tables (the case list and a case, the audit log), not of reading. With
   * a sidebar, the sidebar goes above the page on screens too narrow for both.
   */
  wide?: boolean;
  children: ReactNode;
}

/**
 * A staff page below the shell's company header (the shell draws navigation and avatar): the main
 * column, with a sidebar when the area has one. The current page's link is marked `aria-current`.
 */
export function StaffFrame({ sidebar, wide = false, children }: StaffFrameProps) {
  if (!sidebar) return <main className={wide ? 'wh-main wh-main--wide' : 'wh-main'}>{children}</main>;
  return (
    <main className={wide ? 'wh-main wh-main--wide wh-staff wh-staff--wide' : 'wh-main wh-staff'}>
      <nav aria-label={sidebar.label} className="wh-staff__sidebar">
        <ul>
          {sidebar.links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to}>{link.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="wh-staff__page">{children}</div>
    </main>
  );
}
