/**
 * Light and dark themes. The stylesheet's colours are custom properties whose dark values apply
 * under `<html data-theme="dark">`; this module sets that attribute from the user's choice
 * (system, light or dark, kept in localStorage) and, for "system", from `prefers-color-scheme`.
 * `theme-boot.ts` runs it as a blocking script in the page's head, before the first paint.
 */

/** The user's choice; `system` follows the operating system. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'graph-chat:theme';
const DARK = '(prefers-color-scheme: dark)';

/** The stored choice (`system` when none, or when storage is blocked). */
export function storedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Sets `data-theme` to the theme `choice` resolves to now. */
export function applyTheme(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && window.matchMedia(DARK).matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** Applies the stored choice, and again whenever the system scheme or another tab's choice changes. */
export function followTheme(): void {
  applyTheme(storedTheme());
  const again = () => applyTheme(storedTheme());
  window.matchMedia(DARK).addEventListener('change', again);
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) again();
  });
}

/** Wires the header's theme selector: shows the stored choice, stores and applies a new one. */
export function initThemeToggle(select: HTMLSelectElement): void {
  select.value = storedTheme();
  select.addEventListener('change', () => {
    const choice = select.value as ThemeChoice;
    try {
      if (choice === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, choice);
    } catch {
      // Without storage the choice lasts until the page is reloaded.
    }
    applyTheme(choice);
  });
}
