#!/usr/bin/env bash
# Runs a command with the current Emscripten: Debian sid's, in the chroot
# that scripts/setup.sh makes (WSYNC_SID_ROOT, default /var/lib/wsync/sid).
#
#   bash scripts/current-emscripten.sh emcmake cmake -S . -B build/wasm-current
#   bash scripts/current-emscripten.sh --version     # prints the version, e.g. 6.0.5
#
# The wsync tree appears inside the chroot at its own path, so a build
# folder made inside works outside too (the host's browsers load its pages,
# its install prefix holds the same paths). The mounts live in a private
# mount namespace and vanish with the command. The command runs in the
# current folder, which must be inside the wsync tree; WSYNC_* and CI pass
# through. Needs root (chroot, mount).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P)
sid=${WSYNC_SID_ROOT:-/var/lib/wsync/sid}

if [ ! -e "$sid/.wsync-complete" ] || [ ! -x "$sid/usr/bin/emcc" ]; then
  echo "wsync: the current Emscripten is not installed at $sid: run bash scripts/setup.sh (as root)" >&2
  exit 127
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "wsync: the current Emscripten runs in a chroot, which needs root" >&2
  exit 126
fi
here=$(pwd -P)
case "$here/" in
  "$root"/*) ;;
  *) echo "wsync: run the current Emscripten from inside the wsync tree ($root), not $here" >&2; exit 2 ;;
esac
if [ "${1:-}" = "--version" ]; then
  # emcc's first line: "emcc (Emscripten gcc/clang-like replacement + linker emulating GNU ld) 6.0.5 (...)"
  sed -n 's/^"\?\([0-9][0-9.]*\).*/\1/p' "$sid/usr/share/emscripten/emscripten-version.txt"
  exit 0
fi
[ $# -gt 0 ] || { echo "usage: bash scripts/current-emscripten.sh COMMAND [ARG...]" >&2; exit 2; }

pass=()
while IFS='=' read -r name _; do
  case "$name" in WSYNC_*|CI) pass+=("$name=${!name}") ;; esac
done < <(env)

exec unshare --mount --propagation private -- bash -c '
  set -e
  sid=$1 root=$2 here=$3; shift 3
  mount -t proc proc "$sid/proc"
  mount --rbind /dev "$sid/dev"
  mkdir -p "$sid$root"
  mount --bind "$root" "$sid$root"
  exec chroot "$sid" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    EM_CACHE=/var/cache/wsync-emcache "$@"
' _ "$sid" "$root" "$here" "${pass[@]}" /bin/sh -c 'cd "$0" && exec "$@"' "$here" "$@"
