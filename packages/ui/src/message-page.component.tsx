import type { ReactNode } from 'react';
import { useDocumentTitle } from './use-document-title';

export interface MessagePageProps {
  title: string;
  children?: ReactNode;
  /** `alert` for failures, so screen readers announce them at once. */
  role?: 'alert' | 'status';
}

/** A page-sized message: not found, failure, unavailable part. */
export function MessagePage({ title, children, role }: MessagePageProps) {
  useDocumentTitle(title);
  return (
    <section className="wh-message" role={role}>
      <h1 className="wh-message__title">{title}</h1>
      {children}
    </section>
  );
}
