import { useEffect, useRef, type RefObject } from 'react';
import { useApp } from '../stores/app';

/** How long a screen may take to show its heading (a detail reads its object first). */
const WAIT_FRAMES = 180;

/**
 * After each navigation the focus moves to the new screen's level-1 heading (made focusable by
 * script only), so the keyboard starts there and a screen reader reads where it is, instead of
 * the focus falling back to the top of the page. A screen that puts the focus somewhere itself
 * (the search box, the row a list was left from) keeps it.
 */
export function useFocusOnNavigation(main: RefObject<HTMLElement | null>): void {
  const route = useApp((s) => s.route);
  const first = useRef(true);
  useEffect(() => {
    // The first screen after a start keeps the browser's own starting point.
    if (first.current) {
      first.current = false;
      return;
    }
    let frame = 0;
    let waited = 0;
    const tryFocus = () => {
      const area = main.current;
      if (!area) return;
      const focused = document.activeElement;
      if (focused && focused !== area && area.contains(focused)) return;
      const heading = area.querySelector<HTMLElement>('h1');
      if (heading) {
        heading.tabIndex = -1;
        // The screen keeps its own scroll position (a list scrolled as it was left, a help page at its anchor).
        heading.focus({ preventScroll: true });
        return;
      }
      waited += 1;
      if (waited < WAIT_FRAMES) frame = requestAnimationFrame(tryFocus);
    };
    frame = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(frame);
  }, [route, main]);
}
