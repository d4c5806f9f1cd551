import type { i18n } from 'i18next';
import { act, fireEvent, screen } from '@testing-library/react';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { ConfirmDialog, TOAST_LIFETIME_MS, Toast } from './index';

describe('toast', () => {
  afterEach(() => jest.useRealTimers());

  it('when a success toast has shown for 5 s, then it asks to be dismissed', async () => {
    const i18n = await initTestI18n<i18n>('en');
    jest.useFakeTimers();
    const onDismiss = jest.fn();
    renderWithI18n(
      <Toast status="success" onDismiss={onDismiss} dismissLabel="Close">
        Saved
      </Toast>,
      i18n,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    act(() => jest.advanceTimersByTime(TOAST_LIFETIME_MS - 1));
    expect(onDismiss).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('when an error toast shows, then it is an alert that stays until closed', async () => {
    const i18n = await initTestI18n<i18n>('en');
    jest.useFakeTimers();
    const onDismiss = jest.fn();
    renderWithI18n(
      <Toast status="error" onDismiss={onDismiss} dismissLabel="Close">
        Failed
      </Toast>,
      i18n,
    );
    act(() => jest.advanceTimersByTime(TOAST_LIFETIME_MS * 2));
    expect(onDismiss).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed');
  });
});

describe('confirm dialog', () => {
  it('when open, then it is a labelled modal with focus inside, and Escape cancels', async () => {
    const onCancel = jest.fn();
    const onConfirm = jest.fn();
    renderWithI18n(
      <ConfirmDialog
        open
        title="Leave?"
        confirmLabel="Leave"
        cancelLabel="Stay"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
      await initTestI18n<i18n>('en'),
    );
    const dialog = screen.getByRole('dialog', { name: 'Leave?' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('button', { name: 'Leave' })).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('when the confirmation is disabled, then only cancel can be pressed; closed renders nothing', async () => {
    const i18n = await initTestI18n<i18n>('en');
    const { rerender } = renderWithI18n(
      <ConfirmDialog
        open
        title="Sure?"
        confirmLabel="Finish"
        cancelLabel="Cancel"
        confirmDisabled
        onConfirm={jest.fn()}
        onCancel={jest.fn()}
      />,
      i18n,
    );
    expect(screen.getByRole('button', { name: 'Finish' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
    rerender(
      <ConfirmDialog
        open={false}
        title="Sure?"
        confirmLabel="Finish"
        cancelLabel="Cancel"
        onConfirm={jest.fn()}
        onCancel={jest.fn()}
      />,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
