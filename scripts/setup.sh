#!/usr/bin/env bash
# The README's first command: installs every Debian package Evigrade and its test suite need, then
# `npm ci`, then grades the samples. Run from the checkout, as root or as a user who may `sudo`.
#
#   bash scripts/setup.sh                 packages, npm ci, npm run samples
#   bash scripts/setup.sh --with-docker   also Debian's docker.io (optional: the Docker backend and its tests)
#   bash scripts/setup.sh --no-samples    packages and npm ci only (CI grades the samples in its tests)
#   bash scripts/setup.sh --packages-only packages only
#   bash scripts/setup.sh --list          print the package list and exit (nothing installed)
#
# This list is the only one: .ci/run calls this script, and tests/unit/setup-script.test.ts checks that every
# binary the tests start comes from a package named here.
set -euo pipefail
cd "$(dirname "$0")/.."

# Package, then why. Keep one package per line: the unit test reads these lines.
PACKAGES=(
  bubblewrap        # the default sandbox backend (bwrap)
  util-linux        # prlimit, unshare, mount: the unshare backend and the job's limits
  coreutils         # mkfifo, id, sleep: the sandbox's plumbing and the tests'
  libc-bin          # ldd: the sandbox's root lists the shared libraries it needs
  tar               # the Docker backend's image build and the archive tests
  python3           # language: python runs Debian's python3 in the sandbox (never pip)
  python3-pytest    # ...and its pytest
  radon             # test-only: Python complexity compared with Debian's radon
  redis-server      # the queue tests start their own redis-server on a loopback port
  postgresql        # the history tests start their own Postgres (as the postgres user)
  chromium          # the HTML report's browser tests (Debian's Chromium, never a downloaded one)
  fonts-dejavu-core # the report page's reference screenshots are rendered with DejaVu
  fonts-dejavu-extra # ...and its italic and light faces (without them Chromium slants DejaVu Sans itself)
)
DOCKER_PACKAGES=(
  docker.io # optional: --sandbox docker, `evigrade sandbox build`, and the Docker tests
)

with_docker=0 samples=1 npm_ci=1
for arg in "$@"; do
  case "$arg" in
    --with-docker) with_docker=1 ;;
    --no-samples) samples=0 ;;
    --packages-only) samples=0 npm_ci=0 ;;
    --list)
      printf '%s\n' "${PACKAGES[@]}"
      exit 0
      ;;
    -h | --help)
      sed -n '2,10s/^# \{0,1\}//p' "$0"
      exit 0
      ;;
    *)
      echo "setup: unknown option '$arg' (see: bash scripts/setup.sh --help)" >&2
      exit 2
      ;;
  esac
done
[ "$with_docker" = 1 ] && PACKAGES+=("${DOCKER_PACKAGES[@]}")

say() { printf 'setup: %s\n' "$*"; }
die() {
  printf 'setup: %s\n' "$*" >&2
  exit 1
}

command -v apt-get >/dev/null 2>&1 || die "apt-get not found: this script installs Debian packages (Debian 12 or Ubuntu). Install these by hand: ${PACKAGES[*]}"

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$pkg")
done

if [ "${#missing[@]}" -gt 0 ]; then
  # Root runs apt-get itself; anyone else goes through sudo (non-interactive without a terminal, so CI never hangs).
  as_root=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "installing ${missing[*]} needs root: run this script as root, or install sudo"
    if [ -t 0 ]; then as_root=(sudo); else as_root=(sudo -n); fi
  fi
  say "installing ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  say "Debian packages already installed: ${PACKAGES[*]}"
fi

command -v node >/dev/null 2>&1 || die "node not found: Evigrade needs Node 20 (https://nodejs.org or NodeSource's Debian packages)"
node -e 'const [M,m]=process.versions.node.split(".").map(Number); process.exit(M===20&&m>=19||M>20?0:1)' ||
  die "Node $(node --version) is too old: Evigrade needs Node 20.19 or later"

if [ "$npm_ci" = 1 ]; then
  say "npm ci"
  npm ci --no-audit --no-fund
fi
if [ "$samples" = 1 ]; then
  say "grading the samples (npm run samples)"
  npm run samples
fi
say "done"
