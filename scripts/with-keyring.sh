#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring (the Secret Service
# that keytar talks to on Linux), then stops the keyring daemon by its PID. Used by .ci/run and by
# anyone running the keychain tests on a headless machine.
#   scripts/with-keyring.sh npm test
set -euo pipefail
if [ -z "${ATTEST_IN_KEYRING_SESSION:-}" ]; then
  command -v dbus-run-session >/dev/null || { echo "with-keyring: dbus-run-session not found (apt-get install dbus)" >&2; exit 1; }
  command -v gnome-keyring-daemon >/dev/null || { echo "with-keyring: gnome-keyring-daemon not found (apt-get install gnome-keyring)" >&2; exit 1; }
  export ATTEST_IN_KEYRING_SESSION=1
  exec dbus-run-session -- bash "$0" "$@"
fi
# A throwaway keyring home, so no login keyring of the machine is touched.
keyring_home="$(mktemp -d)"
export XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
printf 'attest-test-keyring' | gnome-keyring-daemon --foreground --unlock --components=secrets >"$keyring_home/daemon.out" 2>&1 &
daemon_pid=$!
cleanup() { kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; rm -rf "$keyring_home"; }
trap cleanup EXIT
# Wait until the Secret Service name is owned on the session bus.
for _ in $(seq 1 100); do
  if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then break; fi
  kill -0 "$daemon_pid" 2>/dev/null || { echo "with-keyring: gnome-keyring-daemon exited:" >&2; cat "$keyring_home/daemon.out" >&2; exit 1; }
  sleep 0.1
done
set +e
"$@"
status=$?
set -e
exit "$status"
