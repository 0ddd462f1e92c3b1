import { useEffect, useMemo, useRef, useState } from 'react';
import { call } from '../api';
import { useApp } from '../stores/app';
import { useQuery } from '../components/useQuery';
import { count, dateTime } from '../components/format';
import { ErrorState, Loading } from '../components/States';

/** What runs the page in the browser host: the browser's name and version from its user agent. */
function browserOf(userAgent: string): string {
  const found = /(Chromium|Chrome|Firefox|Edg|Safari)\/([\d.]+)/.exec(userAgent);
  return found ? `${found[1] === 'Edg' ? 'Edge' : found[1]} ${found[2]}` : userAgent;
}

/** About Attest: its version, what runs it, its data folder, and this build's third-party licence notices. */
export function AboutDialog() {
  const setAbout = useApp((s) => s.setAbout);
  const about = useQuery(() => call('aboutApp'), []);
  const [filter, setFilter] = useState('');
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setAbout(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setAbout]);
  const packages = useMemo(() => {
    const all = about.data?.notices?.packages ?? [];
    const wanted = filter.trim().toLowerCase();
    return wanted ? all.filter((p) => p.name.toLowerCase().includes(wanted) || p.licenses.toLowerCase().includes(wanted)) : all;
  }, [about.data, filter]);

  const data = about.data;
  return (
    <div className="overlay" onMouseDown={(event) => event.target === event.currentTarget && setAbout(false)}>
      <div className="card stack about" role="dialog" aria-modal="true" aria-label="About Attest">
        <div className="row">
          <h2 className="grow" style={{ margin: 0 }}>
            About Attest
          </h2>
          <button ref={close} className="btn small" onClick={() => setAbout(false)}>
            Close
          </button>
        </div>
        {about.error ? (
          <ErrorState message={about.error} onRetry={about.reload} />
        ) : !data ? (
          <Loading />
        ) : (
          <>
            <dl className="kv">
              <dt>Version</dt>
              <dd data-testid="about-version">{data.version}</dd>
              <dt>Runs on</dt>
              <dd data-testid="about-runtime">
                {data.host === 'electron'
                  ? data.runtime.map((r) => `${r.name} ${r.version}`).join(' · ')
                  : `The browser host on ${data.runtime.map((r) => `${r.name} ${r.version}`).join(' · ')}, shown in ${browserOf(navigator.userAgent)}`}{' '}
                ({data.platform})
              </dd>
              <dt>Data folder</dt>
              <dd className="mono" data-testid="about-data-dir">
                {data.dataDir}
              </dd>
            </dl>
            <h3 style={{ margin: 0 }}>Third-party licence notices</h3>
            {data.notices ? (
              <>
                <div className="row">
                  <span className="muted small grow" data-testid="about-notices-count">
                    {count(data.notices.packages.length)} packages, listed when this build was made ({dateTime(data.notices.generatedAt)})
                  </span>
                  <input
                    className="field"
                    style={{ width: 220 }}
                    placeholder="Filter by name or licence"
                    aria-label="Filter the notices"
                    value={filter}
                    onChange={(event) => setFilter(event.target.value)}
                  />
                </div>
                <div className="notices" data-testid="about-notices">
                  {packages.map((p) => (
                    <details key={`${p.name}@${p.version}`} data-package={p.name}>
                      <summary>
                        <span className="mono">
                          {p.name} {p.version}
                        </span>{' '}
                        <span className="muted">{p.licenses}</span>
                      </summary>
                      {p.repository && <div className="small muted mono">{p.repository}</div>}
                      <pre className="notice-text">{p.text || `Licence: ${p.licenses} (no licence file in the package)`}</pre>
                    </details>
                  ))}
                </div>
              </>
            ) : (
              <p className="muted" data-testid="about-notices-missing">
                This build has no licence notices: they are written when the app is built (npm run build), not in a development run.
              </p>
            )}
          </>
        )}
      </div>
    </div>
  );
}
