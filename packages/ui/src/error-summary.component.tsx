import { useId } from 'react';

export interface ErrorSummaryEntry {
  /** Id of the control to go to: a field's input, or a group's first box. */
  target: string;
  /** The field and what is wrong with it, e.g. 'Description: This field is required'. */
  text: string;
}

export interface ErrorSummaryProps {
  title: string;
  errors: readonly ErrorSummaryEntry[];
}

/**
 * Brings a control into view and gives it the focus: its whole field (label, control, message) centred when it fits
 * the screen, else the control itself (a long list of boxes on a phone). jsdom has no scrollIntoView.
 */
export function focusField(id: string) {
  const control = document.getElementById(id);
  if (!control) return;
  const field = control.closest('fieldset, .wh-field') ?? control;
  const fits = field.getBoundingClientRect().height <= window.innerHeight;
  (fits ? field : control).scrollIntoView?.({ block: 'center' });
  control.focus({ preventScroll: true });
}

/**
 * What stops a form from being sent, shown beside its submit button so that a person who pressed it sees why:
 * each entry is a link that brings its field into view and focuses it. Nothing when there is no error.
 */
export function ErrorSummary({ title, errors }: ErrorSummaryProps) {
  const titleId = useId();
  if (errors.length === 0) return null;
  return (
    <section className="wh-error-summary" aria-labelledby={titleId}>
      <h2 className="wh-error-summary__title" id={titleId}>
        {title}
      </h2>
      <ul>
        {errors.map((error) => (
          <li key={error.target}>
            <a
              href={`#${error.target}`}
              onClick={(event) => {
                // In the page: the URL's fragment would be taken by the router as a navigation.
                event.preventDefault();
                focusField(error.target);
              }}
            >
              {error.text}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
