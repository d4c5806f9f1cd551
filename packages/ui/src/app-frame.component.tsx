import type { ReactNode } from 'react';

export interface AppFrameProps {
  /** Left side of the header: logo or product name. */
  brand: ReactNode;
  /** Right side of the header: language chooser, menus. */
  tools?: ReactNode;
  children: ReactNode;
}

/** Page layout shared by every frontend: a header band and a centred main column. */
export function AppFrame({ brand, tools, children }: AppFrameProps) {
  return (
    <div className="wh-frame">
      <header className="wh-header">
        <div className="wh-header__brand">{brand}</div>
        {tools && <div className="wh-header__tools">{tools}</div>}
      </header>
      <main className="wh-main">{children}</main>
    </div>
  );
}
