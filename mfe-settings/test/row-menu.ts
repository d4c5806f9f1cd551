import { fireEvent, screen, within } from '@testing-library/react';

/** Opens the actions menu of the row named `name` and chooses `item` (what a person does with the mouse). */
export async function chooseRowAction(name: string, item: string): Promise<void> {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  fireEvent.click(
    within(screen.getByRole('menu', { name: `Actions for ${name}` })).getByRole('menuitem', { name: item }),
  );
}
