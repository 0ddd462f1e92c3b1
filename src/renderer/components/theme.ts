import { useEffect } from 'react';
import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'attest-theme';

function initial(): ThemeChoice {
  const saved = localStorage.getItem(KEY);
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

/** The theme follows the OS (prefers-color-scheme) unless the user picks one in Settings. */
export const useThemeChoice = create<{ theme: ThemeChoice; setTheme(theme: ThemeChoice): void }>()((set) => ({
  theme: initial(),
  setTheme(theme) {
    if (theme === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
    set({ theme });
  },
}));

/**
 * Sets `data-theme` on the root to the theme in force ('light' or 'dark'), following the OS while
 * the choice is 'system', so the stylesheet keeps one dark palette.
 */
export function useTheme(): void {
  const theme = useThemeChoice((s) => s.theme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme !== 'system') {
      root.dataset.theme = theme;
      return;
    }
    const os = window.matchMedia('(prefers-color-scheme: dark)');
    const follow = (): void => {
      root.dataset.theme = os.matches ? 'dark' : 'light';
    };
    follow();
    os.addEventListener('change', follow);
    return () => os.removeEventListener('change', follow);
  }, [theme]);
}
