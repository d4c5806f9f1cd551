import { useId, type ReactNode } from 'react';
import { RequiredMark } from './field.component';
import './choice.css';

/** A category (reporting label) as the API gives it: no parent, or the parent's uuid for a sub-category. */
export interface CategoryOption {
  uuid: string;
  name: string;
  parent_uuid: string | null;
}

export interface CategoryPickerProps {
  /** Name of every checkbox; the spec's report input is `category_uuids`. */
  name?: string;
  legend: ReactNode;
  categories: readonly CategoryOption[];
  selected: readonly string[];
  /** The new selection after a box is ticked or cleared. */
  onChange: (selected: string[]) => void;
  error?: string;
  /** Id of the first checkbox, where a link to the group (an error summary) leads. */
  id?: string;
  /**
   * Marks the group required (at least one box), with these words after the legend. No aria-required: a group
   * cannot carry it and each box is optional; the words are part of the group's name.
   */
  requiredMark?: string;
}

/**
 * Several categories as checkboxes, sub-categories listed under their parent (spec §3). A category
 * whose parent is not among `categories` shows at the top level.
 */
export function CategoryPicker({
  name = 'category_uuids',
  legend,
  categories,
  selected,
  onChange,
  error,
  id,
  requiredMark,
}: CategoryPickerProps) {
  const errorId = useId();
  const topLevel = categories.filter(
    (category) => !category.parent_uuid || !categories.some((other) => other.uuid === category.parent_uuid),
  );
  const first = topLevel[0];
  const toggle = (uuid: string) =>
    onChange(selected.includes(uuid) ? selected.filter((other) => other !== uuid) : [...selected, uuid]);
  const box = (category: CategoryOption, children?: ReactNode) => (
    <li key={category.uuid}>
      <label>
        <input
          id={category.uuid === first?.uuid ? id : undefined}
          type="checkbox"
          name={name}
          value={category.uuid}
          checked={selected.includes(category.uuid)}
          onChange={() => toggle(category.uuid)}
        />{' '}
        {category.name}
      </label>
      {children}
    </li>
  );
  return (
    <fieldset
      className={error ? 'wh-categories wh-field--invalid' : 'wh-categories'}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="wh-field__label">
        {legend}
        <RequiredMark words={requiredMark} />
      </legend>
      <ul>
        {topLevel.map((parent) => {
          const subs = categories.filter((category) => category.parent_uuid === parent.uuid);
          return box(parent, subs.length > 0 ? <ul>{subs.map((sub) => box(sub))}</ul> : undefined);
        })}
      </ul>
      {error && (
        <p className="wh-field__error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
