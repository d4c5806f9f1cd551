import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import './menu-button.css';

export interface MenuItem {
  /** The item's visible text. */
  label: string;
  onSelect(): void;
  /** Deletes, revokes or removes something: shown in the danger style. */
  danger?: boolean;
  disabled?: boolean;
}

export interface MenuButtonProps {
  /** The button's visible text (e.g. "Actions"). */
  label: string;
  /** Its accessible name when the visible text alone does not say what it acts on (e.g. "Actions for Ada"). */
  ariaLabel?: string;
  items: readonly MenuItem[];
  disabled?: boolean;
}

/**
 * A button that opens a menu of actions (the WAI-ARIA menu button pattern): `aria-haspopup` and `aria-expanded` on
 * the button; Enter, Space or ArrowDown open the menu on its first item, ArrowUp on its last; ArrowUp/ArrowDown,
 * Home and End move between items; Escape or Tab close it, and Escape (or choosing an item) gives focus back to the
 * button; a click outside closes it.
 */
export function MenuButton({ label, ariaLabel, items, disabled = false }: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const enabled = items.map((item, index) => (item.disabled ? -1 : index)).filter((index) => index >= 0);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')[focusIndex]?.focus();
  }, [open, focusIndex]);
  useEffect(() => {
    if (!open) return undefined;
    const closeOutside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', closeOutside);
    return () => document.removeEventListener('mousedown', closeOutside);
  }, [open]);

  const openAt = (index: number | undefined) => {
    if (index === undefined) return;
    setFocusIndex(index);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt(enabled[0]);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(enabled.at(-1));
    }
  };
  const onMenuKeyDown = (event: KeyboardEvent) => {
    const position = enabled.indexOf(focusIndex);
    const moves: Record<string, number | undefined> = {
      ArrowDown: enabled[(position + 1) % enabled.length],
      ArrowUp: enabled[(position - 1 + enabled.length) % enabled.length],
      Home: enabled[0],
      End: enabled.at(-1),
    };
    if (event.key in moves) {
      event.preventDefault();
      setFocusIndex(moves[event.key]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };
  const choose = (item: MenuItem) => {
    close(true);
    item.onSelect();
  };

  return (
    <div className="wh-menu">
      <button
        ref={buttonRef}
        type="button"
        id={`${id}-button`}
        className="wh-button wh-button--secondary wh-button--small"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        aria-label={ariaLabel}
        disabled={disabled}
        onClick={() => (open ? close(false) : openAt(enabled[0]))}
        onKeyDown={onButtonKeyDown}
      >
        {label}
        <span aria-hidden="true" className="wh-menu__caret">
          ▾
        </span>
      </button>
      {open && (
        <ul ref={menuRef} id={`${id}-menu`} role="menu" aria-labelledby={`${id}-button`} className="wh-menu__list">
          {items.map((item, index) => (
            <li key={item.label} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={index === focusIndex ? 0 : -1}
                disabled={item.disabled}
                className={item.danger ? 'wh-menu__item wh-menu__item--danger' : 'wh-menu__item'}
                onClick={() => choose(item)}
                onKeyDown={onMenuKeyDown}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
