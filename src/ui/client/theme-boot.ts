/**
 * Entry of `/ui/theme.js`, a small classic script the page loads in its head before the
 * stylesheet: being blocking, it sets the theme before anything is painted (no light flash in
 * dark mode). The Content-Security-Policy allows no inline script, hence a file of its own.
 */
import { followTheme } from './theme.js';

followTheme();
