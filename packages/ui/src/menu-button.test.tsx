import { fireEvent, render, screen, within } from '@testing-library/react';
import { MenuButton, TableScroll } from './index';

function renderMenu() {
  const chosen: string[] = [];
  const item = (label: string, extra = {}) => ({ label, onSelect: () => chosen.push(label), ...extra });
  render(
    <>
      <MenuButton
        label="Actions"
        ariaLabel="Actions for Hal"
        items={[item('Change roles'), item('Send again', { disabled: true }), item('Remove', { danger: true })]}
      />
      <button type="button">Elsewhere</button>
    </>,
  );
  return { chosen, button: screen.getByRole('button', { name: 'Actions for Hal' }) };
}

const focusedText = () => document.activeElement?.textContent;

describe('menu button', () => {
  it('when opened from the keyboard, then the first item has focus, arrows skip a disabled one and wrap, Escape closes and gives focus back', () => {
    const { button, chosen } = renderMenu();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).toBeNull();

    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu', { name: 'Actions for Hal' });
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(focusedText()).toBe('Change roles');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(focusedText()).toBe('Remove');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(focusedText()).toBe('Change roles');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(focusedText()).toBe('Remove');
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(focusedText()).toBe('Change roles');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(focusedText()).toBe('Remove');
    // One tab stop inside the menu: the focused item.
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.tabIndex),
    ).toEqual([-1, -1, 0]);

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(document.activeElement).toBe(button);
    expect(chosen).toEqual([]);
  });

  it('when an item is chosen with Enter or a click, then it runs once, the menu closes and focus is back on the button', () => {
    const { button, chosen } = renderMenu();
    fireEvent.keyDown(button, { key: 'ArrowUp' });
    expect(focusedText()).toBe('Remove');
    expect(document.activeElement).toHaveClass('wh-menu__item--danger');
    fireEvent.click(document.activeElement!);
    expect(chosen).toEqual(['Remove']);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Change roles' }));
    expect(chosen).toEqual(['Remove', 'Change roles']);
  });

  it('when the pointer goes down outside, or Tab leaves, then the menu closes', () => {
    const { button } = renderMenu();
    fireEvent.click(button);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(button);
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('table scroll', () => {
  it('when a table is wrapped, then a labelled region in the tab order holds it (focus it and the browser’s arrow keys scroll it)', () => {
    render(
      <>
        <button type="button">Before</button>
        <TableScroll label="Audit log entries">
          <table>
            <tbody>
              <tr>
                <td>wide</td>
              </tr>
            </tbody>
          </table>
        </TableScroll>
      </>,
    );
    const region = screen.getByRole('region', { name: 'Audit log entries' });
    expect(region).toHaveClass('wh-table-scroll');
    expect(region).toHaveAttribute('tabindex', '0');
    expect(within(region).getByRole('table')).toBeInTheDocument();
    // The next tab stop after the button: reachable by keyboard, where the browser scrolls it with the arrows.
    const tabbable = Array.from(document.querySelectorAll<HTMLElement>('button, [tabindex="0"]'));
    expect(tabbable.indexOf(region)).toBe(tabbable.indexOf(screen.getByRole('button', { name: 'Before' })) + 1);
    region.focus();
    expect(document.activeElement).toBe(region);
  });
});
