import { useApp } from '../stores/app';

/**
 * Runs on their own that ended with failures, as toasts (the desktop app shows a system
 * notification instead): each says what failed and leads to the Outbox, until dismissed.
 */
export function Notices() {
  const notices = useApp((s) => s.notices);
  const dismiss = useApp((s) => s.dismissNotice);
  const navigate = useApp((s) => s.navigate);
  if (notices.length === 0) return null;
  return (
    <div className="toasts">
      {notices.map((notice) => (
        <div key={`${notice.at}-${notice.kind}`} className="toast" role="alert" data-testid="notice-toast" data-failures={notice.failures}>
          <strong>{notice.title}</strong>
          <div className="small">{notice.body}</div>
          <div className="row">
            {notice.kind === 'send' && (
              <button
                className="btn small"
                onClick={() => {
                  dismiss(notice);
                  navigate({ view: 'outbox' });
                }}
              >
                Open the Outbox
              </button>
            )}
            <button className="btn small" onClick={() => dismiss(notice)}>
              Dismiss
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
