import { useEffect } from 'react';
import { listenToCore, useApp } from '../stores/app';
import { ErrorState, Loading } from '../components/States';
import { FirstRun } from '../views/first-run/FirstRun';
import { ConnectForm } from '../views/first-run/ConnectForm';
import { Frame } from './Frame';
import { Palette } from './Palette';
import { Routes } from './Routes';
import { useTheme } from '../components/theme';
import { AboutDialog } from './AboutDialog';
import { HelpView } from '../views/help/HelpView';

/** A field where Alt+arrows belong to the text. */
function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export function App() {
  const boot = useApp((s) => s.boot);
  const bootError = useApp((s) => s.bootError);
  const active = useApp((s) => s.active);
  const adding = useApp((s) => s.addingConnection);
  const setAdding = useApp((s) => s.setAddingConnection);
  const start = useApp((s) => s.start);
  const setPalette = useApp((s) => s.setPalette);
  const paletteOpen = useApp((s) => s.paletteOpen);
  const aboutOpen = useApp((s) => s.aboutOpen);
  const route = useApp((s) => s.route);
  const back = useApp((s) => s.back);
  useTheme();

  useEffect(() => {
    const stop = listenToCore();
    void start();
    return stop;
  }, [start]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        if (useApp.getState().active) setPalette(!useApp.getState().paletteOpen);
      } else if (event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight') && !isEditable(event.target)) {
        // Back and Forward, as in a browser.
        event.preventDefault();
        if (event.key === 'ArrowLeft') useApp.getState().back();
        else useApp.getState().forward();
      } else if (event.key === 'Escape' && useApp.getState().paletteOpen) {
        setPalette(false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setPalette]);

  if (boot === 'loading') return <Loading label="Starting Attest…" />;
  if (boot === 'error') return <ErrorState title="Attest could not start" message={bootError ?? ''} onRetry={() => void start()} />;
  if (!active)
    return (
      <>
        {route.view === 'help' ? (
          <main className="first-run-help">
            <button className="btn small" onClick={back}>
              ← Back
            </button>
            <HelpView doc={route.doc} anchor={route.anchor} />
          </main>
        ) : (
          <FirstRun />
        )}
        {aboutOpen && <AboutDialog />}
      </>
    );
  return (
    <>
      <Frame>
        <Routes />
      </Frame>
      {paletteOpen && <Palette />}
      {aboutOpen && <AboutDialog />}
      {adding && (
        <div className="overlay" onMouseDown={(event) => event.target === event.currentTarget && setAdding(false)}>
          <div className="card stack" style={{ width: 'min(640px, 92vw)' }} role="dialog" aria-label="Add a tenant">
            <h2>Add a tenant</h2>
            <ConnectForm onCancel={() => setAdding(false)} />
          </div>
        </div>
      )}
    </>
  );
}
