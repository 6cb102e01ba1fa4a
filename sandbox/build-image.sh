#!/usr/bin/env bash
# Builds the Docker sandbox image locally (no registry): the same root file system the
# process backends use — node, its libraries and the harness — imported with a content-hash tag.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f sandbox/dist/harness.cjs ] || npm run build
exec node bin/evigrade.js sandbox build
