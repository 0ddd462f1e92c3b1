import { app, Notification } from 'electron';
import type { Notifier } from '../app/auto-run';

/**
 * The desktop app's notifier: a system notification when a run on its own ends with failures, and
 * the count of failed and uncertain changes on the app's icon where the platform shows one.
 */
export function desktopNotifier(log: (line: string) => void): Notifier {
  return {
    notify(notice) {
      if (!Notification.isSupported()) {
        log(`${notice.title}: ${notice.body}`);
        return;
      }
      new Notification({ title: `Attest: ${notice.title}`, body: notice.body }).show();
    },
    badge(count) {
      // Linux (Unity launchers) and macOS show it; elsewhere it does nothing.
      app.setBadgeCount(count);
    },
  };
}
