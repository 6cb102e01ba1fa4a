#!/usr/bin/env bash
# The fresh-machine check: a clean Debian 12 (bookworm) root made by debootstrap from Debian's mirror, Node 20
# copied in from this host, this repository cloned into it as `evigrade` (a plain `git clone` of the committed
# HEAD), and the README's two commands run there as root, with no sudo binary, no terminal and no stdin.
# Both must exit 0.
#
#   sudo bash scripts/fresh-machine.sh [--ref REF] [--keep] [--mirror URL] [--again KEPT-ROOT]
#
# Needs on the host: root, debootstrap, git, bubblewrap, network to the Debian mirror and the npm
# registry. The pristine root is cached in $EVIGRADE_FRESH_DIR (default /var/tmp/evigrade-fresh/base) and
# copied for each run, so a second run skips debootstrap. What the root gets from the host, and why:
#   its own mount, IPC and UTS namespaces (bubblewrap; the network is the host's),
#   /proc (the host's, bound: a job's sandbox mounts a proc of its own, which the kernel allows only where a proc
#   is fully visible; bubblewrap's own --proc covers /proc/sys and the like, so it would not be),
#   /dev (bind: the sandbox needs /dev/null, /dev/urandom, ptys),
#   /sys with /sys/fs/cgroup (bind, read-write: the sandbox puts each job in a pids/memory cgroup),
#   tmpfs on /tmp and /dev/shm, world-writable and sticky as on any Debian machine (apt's _apt user and
#   Postgres's own user write there; Postgres needs shared memory), /etc/resolv.conf (apt and npm reach the network).
# Docker is not installed there, so the Docker tests skip (as they do on any machine without an engine).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

ref=HEAD keep=0 again= mirror=http://deb.debian.org/debian
while [ $# -gt 0 ]; do
  case "$1" in
    --ref) ref=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --again) again=$2; shift 2 ;;
    --mirror) mirror=$2; shift 2 ;;
    *) echo "fresh-machine: unknown option '$1'" >&2; exit 2 ;;
  esac
done

say() { printf 'fresh-machine: %s\n' "$*"; }

# One README command as a new user types it, as root in the fresh root (bound with devices allowed, as a machine's
# own root file system is: bwrap's plain --bind adds nodev, and the unshare backend's job roots carry device nodes): a login-like environment, no terminal,
# stdin closed. bubblewrap (as root, no user namespace: the command keeps root's capabilities) makes the root the
# mount namespace's own root with pivot_root. A chroot would not do: the kernel refuses new user namespaces to a
# chrooted process, so neither bwrap nor unshare could sandbox a job there.
run_step() {
  local root=$1 n=$2 cmd=$3
  say "command $n: $cmd"
  local -a argv env=(--setenv HOME /root --setenv USER root --setenv LOGNAME root --setenv SHELL /bin/bash
    --setenv PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
  read -r -a argv <<<"$cmd"
  [ -f "$root/etc/ssl/host-network-ca.pem" ] && env+=(--setenv NODE_EXTRA_CA_CERTS /etc/ssl/host-network-ca.pem)
  set +e
  bwrap --dev-bind "$root" / --dev-bind /dev /dev --perms 1777 --tmpfs /dev/shm --bind /proc /proc --bind /sys /sys --perms 1777 --tmpfs /tmp \
    --unshare-ipc --unshare-uts --hostname fresh-debian --die-with-parent --clearenv "${env[@]}" \
    --chdir /root/evigrade -- "${argv[@]}" </dev/null 2>&1 | tee "$root/root/command-$n.log"
  local rc=${PIPESTATUS[0]}
  set -e
  say "command $n exited $rc"
  echo "$rc" >"$root/root/command-$n.rc"
  return "$rc"
}

[ "$(id -u)" = 0 ] || { echo "fresh-machine: run as root (debootstrap, and the commands run as root in the new root)" >&2; exit 2; }
for tool in debootstrap git bwrap; do
  command -v "$tool" >/dev/null 2>&1 || { echo "fresh-machine: $tool not found (apt-get install debootstrap git bubblewrap)" >&2; exit 2; }
done

cache=${EVIGRADE_FRESH_DIR:-/var/tmp/evigrade-fresh}
base=$cache/base
if [ ! -f "$base/.complete" ]; then
  say "debootstrap bookworm from $mirror into $base (once; cached)"
  rm -rf "$base"
  mkdir -p "$cache"
  debootstrap --variant=minbase bookworm "$base" "$mirror"
  touch "$base/.complete"
fi

if [ -n "$again" ]; then
  # A kept root of an earlier run, after a fix: the same two commands on the new commit. The root is no longer bare
  # (it holds what command 1 installed), so this proves command 2 and a re-run of command 1, not a first day.
  run_root=$again keep=1
  [ -d "$run_root/root/evigrade" ] || { echo "fresh-machine: $run_root is not a kept root" >&2; exit 2; }
  commit=$(git -C "$repo" rev-parse --verify "$ref^{commit}")
  say "again in $run_root, on $commit"
  git -C "$run_root/root/evigrade" fetch --quiet "$repo" "$commit"
  git -C "$run_root/root/evigrade" checkout --quiet --detach "$commit"
else
  run_root=$cache/run-$(date -u +%Y%m%dT%H%M%S)
  say "copying the pristine root to $run_root"
  cp -a "$base" "$run_root"
  cleanup() { [ "$keep" = 1 ] && say "kept $run_root" || rm -rf --one-file-system "$run_root"; }
  trap cleanup EXIT

  [ ! -e "$run_root/usr/bin/sudo" ] || { echo "fresh-machine: the root has sudo; it must not" >&2; exit 1; }
  cp /etc/resolv.conf "$run_root/etc/resolv.conf"
  # The sources a Debian 12 install (or cloud image) has; debootstrap writes only the release itself, so without these
  # the root would get bookworm's first Chromium instead of the one security updates ship (and render pages otherwise).
  rm -f "$run_root/etc/apt/sources.list"
  cat >"$run_root/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  # As in Debian's container images: packages do not start their services at install (redis-server and postgresql
  # would try to listen on the host's 6379 and 5432, since the root shares its network). The tests start their own.
  printf '#!/bin/sh\nexit 101\n' >"$run_root/usr/sbin/policy-rc.d"
  chmod 0755 "$run_root/usr/sbin/policy-rc.d"

  # A network that intercepts TLS (a proxy with its own CA) needs that CA on every machine on it: the host's
  # NODE_EXTRA_CA_CERTS file goes in as is, for npm only. Nothing else of the host's configuration does.
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    mkdir -p "$run_root/etc/ssl"
    cp "$NODE_EXTRA_CA_CERTS" "$run_root/etc/ssl/host-network-ca.pem"
    say "passing the host's NODE_EXTRA_CA_CERTS to npm (this network's TLS CA)"
  fi

  # Node 20 from the host: the binary and npm, wherever `which node` resolves.
  node_bin=$(readlink -f "$(command -v node)")
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  say "node $("$node_bin" --version) from $node_bin, npm from $npm_dir"
  install -D -m 0755 "$node_bin" "$run_root/usr/bin/node"
  mkdir -p "$run_root/usr/lib/node_modules"
  cp -a "$npm_dir" "$run_root/usr/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$run_root/usr/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$run_root/usr/bin/npx"

  commit=$(git -C "$repo" rev-parse --verify "$ref^{commit}")
  say "git clone of $commit into /root/evigrade"
  git clone --quiet --no-hardlinks "$repo" "$run_root/root/evigrade"
  git -C "$run_root/root/evigrade" checkout --quiet --detach "$commit"
fi

status=0
run_step "$run_root" 1 "bash scripts/setup.sh" || status=1
[ "$status" = 0 ] && { run_step "$run_root" 2 "npm test" || status=1; }

say "summary"
for n in 1 2; do
  printf '  command %s: exit %s\n' "$n" "$(cat "$run_root/root/command-$n.rc" 2>/dev/null || echo 'not run')"
done
grep -E '^ *Test Files|^ *Tests ' "$run_root/root/command-2.log" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g; s/^/  /' || true
if [ "$status" != 0 ]; then
  keep=1
  say "FAILED: logs in $run_root/root/command-*.log"
fi
exit "$status"
