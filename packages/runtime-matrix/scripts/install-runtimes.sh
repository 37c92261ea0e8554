#!/usr/bin/env bash
# Installs the runtimes of the matrix (Node 22 and 24, Bun, Deno, Miniflare with workerd) from
# the npm packages that ship their binaries, at the versions pinned in runtimes/package.json and
# its lockfile, into runtimes/node_modules (gitignored, never a workspace dependency: ~750 MB).
# Nothing comes from anywhere but the npm registry, and no package's install script runs.
set -euo pipefail
cd "$(dirname "$0")/../runtimes"

platform="$(uname -s)-$(uname -m)"
if [ "$platform" != "Linux-x86_64" ]; then
  echo "runtime matrix: only linux-x64 binaries are pinned; nothing installed on $platform (the matrix skips them)"
  exit 0
fi

# npm ci wipes node_modules first; skip it when this very lockfile is already installed.
stamp="node_modules/.runtime-matrix-stamp"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "runtime matrix: runtimes already installed ($want)"
  exit 0
fi

started=$SECONDS
npm ci --no-audit --no-fund --ignore-scripts --prefer-offline --loglevel=error </dev/null
echo "$want" >"$stamp"
echo "runtime matrix: runtimes installed in $((SECONDS - started)) s:"
for bin in node22/bin/node node24/bin/node @oven/bun-linux-x64/bin/bun @deno/linux-x64-glibc/deno \
  @cloudflare/workerd-linux-64/bin/workerd; do
  printf '  %-42s %s\n' "$bin" "$("node_modules/$bin" --version 2>&1 | head -1)"
done
