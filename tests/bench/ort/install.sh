#!/usr/bin/env bash
# Installs ONNX Runtime 1.30.0 (npm onnxruntime-node, with its exact dependencies from
# package-lock.json, checked by npm against the lock's sha512s) into DEST (default: the user's cache,
# ${XDG_CACHE_HOME:-~/.cache}/minnx/onnxruntime-node-1.30.0, shared by every build tree), for
# tests/bench (run.py, models.py: ORT as a measuring peer) and tests/models (ORT's outputs as the
# references of the npm-packaged models). ORT is never linked into minnx and nothing of it is committed.
#   tests/bench/ort/install.sh [DEST]
# With --ignore-scripts: the package's postinstall would download more (GPU providers); the package
# itself carries libonnxruntime.so.1 and the Node binding for linux x64 and arm64. Idempotent: when
# DEST holds this very lock's installation, it says so and does nothing. Needs node (>= 16) and npm
# (Debian: apt-get install nodejs npm) and the npm registry.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/minnx/onnxruntime-node-1.30.0}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
exec 9>"$dest/.lock" # one installation at a time (ctest runs of several build trees share DEST)
flock 9
want=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ -f "$dest/installed" ] && [ "$(cat "$dest/installed")" = "$want" ] &&
   [ -f "$dest/node_modules/onnxruntime-node/package.json" ]; then
  echo "ort: onnxruntime-node 1.30.0 already installed in $dest"
  exit 0
fi
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "ort: $tool not found (Debian: apt-get install nodejs npm)" >&2; exit 1; }
done
rm -f "$dest/installed"
cp "$here/package.json" "$here/package-lock.json" "$dest/"
(cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
# the binding loads, and is the version pinned
node -e '
  const pkg = process.argv[1] + "/node_modules/onnxruntime-node";
  const v = require(pkg + "/package.json").version;
  if (v !== "1.30.0") { console.error("ort: installed " + v + ", not 1.30.0"); process.exit(1); }
  require(pkg + "/dist/binding").initOrt();
  console.log("ort: onnxruntime-node " + v + " installed in " + process.argv[1]);
' "$dest"
echo "$want" >"$dest/installed"
