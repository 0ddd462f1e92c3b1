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

export function useTheme(): void {
  const theme = useThemeChoice((s) => s.theme);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
}
