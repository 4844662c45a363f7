/**
 * One native `<dialog>` used for rename (with a text field) and delete (a confirmation). The
 * browser traps focus in it and Escape cancels; focus returns to the button that opened it.
 * Cancel is a plain button, so the form's default button (the one Enter presses) is OK.
 */
import { byId } from './dom.js';

/** Options of {@link openDialog}. */
export interface DialogOptions {
  title: string;
  text?: string;
  /** Shows the text field with this initial value. */
  input?: string;
  okLabel: string;
  /** Returns an error message to keep the dialog open, or null to accept. */
  validate?: (value: string) => string | null;
}

/** Opens the dialog; resolves with the field's value (or '' without field) or null when cancelled. */
export function openDialog(opts: DialogOptions): Promise<string | null> {
  const dialog = byId<HTMLDialogElement>('dialog');
  const input = byId<HTMLInputElement>('dialog-input');
  const label = byId('dialog-label');
  const error = byId('dialog-error');
  const ok = byId<HTMLButtonElement>('dialog-ok');
  const opener = document.activeElement as HTMLElement | null;
  byId('dialog-title').textContent = opts.title;
  byId('dialog-text').textContent = opts.text ?? '';
  ok.textContent = opts.okLabel;
  error.textContent = '';
  const withInput = opts.input !== undefined;
  input.hidden = label.hidden = !withInput;
  input.value = opts.input ?? '';

  return new Promise((resolve) => {
    const onOk = (e: Event) => {
      const err = withInput && opts.validate ? opts.validate(input.value) : null;
      if (err) {
        e.preventDefault();
        error.textContent = err;
        input.focus();
      }
    };
    const cancel = byId<HTMLButtonElement>('dialog-cancel');
    const onCancel = () => dialog.close('cancel');
    ok.addEventListener('click', onOk);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener(
      'close',
      () => {
        ok.removeEventListener('click', onOk);
        cancel.removeEventListener('click', onCancel);
        opener?.focus();
        resolve(dialog.returnValue === 'ok' ? input.value.trim() : null);
      },
      { once: true },
    );
    dialog.returnValue = '';
    dialog.showModal();
    if (withInput) {
      input.focus();
      input.select();
    } else {
      ok.focus();
    }
  });
}
