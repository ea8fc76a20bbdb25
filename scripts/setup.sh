#!/usr/bin/env bash
# Installs what wsync's build and tests need on Debian 12, and nothing that is
# already there. Safe to run again. Run as root (or with sudo available).
#
# Two Emscriptens: Debian 12's 3.1.6 on the host, and the current one,
# whatever version Debian sid serves, in a sid chroot beside it (sid's
# packages would upgrade the host's glibc). The chroot costs about 1 GB and
# 4 minutes the first time here (1 to install, 2 to 3 for emcc's first
# build of its system libraries); then it is reused.
# scripts/current-emscripten.sh runs a command in it.
#
# Exit status: 0 all present; 1 the host's packages failed; 2 the host is
# ready but the current Emscripten could not be installed (said why, and how
# to retry; the test command then counts its legs as failed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

say() { printf '[setup] %s\n' "$*"; }
# as_root COMMAND...: as root, through sudo when this is not root.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; return; fi
  command -v sudo >/dev/null 2>&1 || { echo "[setup] need root (or sudo) for: $*" >&2; exit 1; }
  sudo "$@"
}

# Debian packages, each with the command or file that shows it is present.
#   emscripten 3.1.6 (brings binaryen 108: wasm-dis, wasm-opt), GoogleTest
#   sources, Python 3 (emcc, serve.py, the test helpers), Node.js and npm,
#   the browser engines of the browser tests (no test tool may download its
#   own browser): Chromium, Firefox ESR, WebKitGTK's WebKitWebDriver with
#   MiniBrowser, and Xvfb with xauth for WebKitGTK's X display,
#   pkg-config (the example that links the installed wsync with it), spin
#   (the model checks in tests/models), clang-format (the C and C++ style
#   check, .clang-format), mmdebstrap (the current Emscripten's chroot,
#   below).
packages=(
  "cmake:command:cmake"
  "g++:command:g++"
  "make:command:make"
  "python3:command:python3"
  "emscripten:command:emcc"
  "binaryen:command:wasm-dis"
  "googletest:file:/usr/src/googletest/CMakeLists.txt"
  "chromium:file:/usr/bin/chromium"
  "firefox-esr:command:firefox-esr"
  "webkit2gtk-driver:command:WebKitWebDriver"
  "xvfb:command:xvfb-run"
  "xauth:command:xauth"
  "pkgconf:command:pkg-config"
  "spin:command:spin"
  "clang-format:command:clang-format"
  "mmdebstrap:command:mmdebstrap"
)
# Node.js 20 comes with the machine image; Debian's nodejs is the fallback.
command -v node >/dev/null 2>&1 || packages+=("nodejs:command:node")
command -v npm >/dev/null 2>&1 || packages+=("npm:command:npm")

missing=()
for entry in "${packages[@]}"; do
  IFS=: read -r pkg kind what <<<"$entry"
  case "$kind" in
    command) command -v "$what" >/dev/null 2>&1 || missing+=("$pkg") ;;
    file) [ -e "$what" ] || missing+=("$pkg") ;;
  esac
done

if [ ${#missing[@]} -eq 0 ]; then
  say "all Debian packages present"
else
  say "installing: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  say "installed: ${missing[*]}"
fi

# Firefox ESR 140, the engine without Atomics.waitAsync: bookworm's main
# suite still has it (firefox-esr above is 153, from bookworm-security).
# Its package is unpacked beside 153, not installed (WSYNC_FIREFOX_140_ROOT
# overrides where; tests/browser/harness.mjs looks there).
ff140=${WSYNC_FIREFOX_140_ROOT:-/opt/wsync/firefox-esr-140}
if [ ! -x "$ff140/usr/lib/firefox-esr/firefox-esr" ]; then
  version() { apt-cache madison firefox-esr | awk -F'|' '{gsub(/ /, "", $2)} $2 ~ /^140\./ {print $2; exit}'; }
  v=$(version)
  if [ -z "$v" ]; then as_root apt-get update -qq; v=$(version); fi
  [ -n "$v" ] || { echo "[setup] no firefox-esr 140 in apt's sources (bookworm main has it)" >&2; exit 1; }
  say "unpacking firefox-esr $v into $ff140"
  scratch=$(mktemp -d)
  (cd "$scratch" && apt-get download -qq -o APT::Sandbox::User=root "firefox-esr=$v")
  as_root rm -rf "$ff140.partial"
  as_root mkdir -p "$(dirname "$ff140")"
  as_root dpkg -x "$scratch"/firefox-esr_*.deb "$ff140.partial"
  as_root mv "$ff140.partial" "$ff140"
  rm -rf "$scratch"
fi

# npm packages of the tests: playwright-core (Chromium) and puppeteer-core
# (Firefox) for the browser tests, prettier (the JS style check), and the
# blurs the demo compares its own with (OpenCV.js, Photon), pinned by
# tests/browser/package-lock.json; reinstalled when the lock names another
# version of any.
browser="$root/tests/browser"
npm_versions() {  # npm_versions lock|installed
  node -e '
    const [dir, which] = process.argv.slice(1);
    console.log(["playwright-core", "puppeteer-core", "prettier", "@techstark/opencv-js", "@silvia-odwyer/photon"].map((name) => {
      try {
        return which === "lock"
          ? require(`${dir}/package-lock.json`).packages[`node_modules/${name}`].version
          : require(`${dir}/node_modules/${name}/package.json`).version;
      } catch { return "none"; }
    }).join(" "));' "$browser" "$1"
}
want=$(npm_versions lock)
if [ "$want" != "$(npm_versions installed)" ]; then
  say "npm ci in tests/browser (playwright-core, puppeteer-core, prettier, opencv-js, photon: $want)"
  (cd "$browser" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

read -r playwright puppeteer prettier opencv photon <<<"$want"
say "emcc $(NODE_PATH=/usr/share/nodejs emcc --version 2>/dev/null | head -1 | sed 's/^emcc (.*) \([^ ]*\).*/\1/'), node $(node --version), cmake $(cmake --version | head -1 | awk '{print $3}')"
say "$(chromium --version 2>/dev/null | head -1), $(firefox-esr --version 2>/dev/null), $("$ff140/usr/lib/firefox-esr/firefox-esr" --version 2>/dev/null), WebKitGTK $(dpkg-query -W -f='${Version}' webkit2gtk-driver 2>/dev/null)"
say "playwright-core $playwright, puppeteer-core $puppeteer, prettier $prettier, opencv-js $opencv, photon $photon"

# The current Emscripten: a Debian sid chroot made by Debian's mmdebstrap,
# from the mirror this machine's apt already uses (WSYNC_DEBIAN_MIRROR
# overrides). It is made in a scratch folder and renamed when complete, so a
# run that fails half-way leaves nothing that looks usable.
sid=${WSYNC_SID_ROOT:-/var/lib/wsync/sid}
current_failed() {
  echo "[setup] the current Emscripten could not be installed in $sid: $1" >&2
  echo "[setup] retry with: bash scripts/setup.sh (as root, with Debian's mirror reachable; the log is $sid.log)" >&2
  exit 2
}
# Whatever else fails from here on is said, and leaves the host's part done.
trap 'current_failed "unexpected failure at scripts/setup.sh line $LINENO"' ERR
if [ ! -e "$sid/.wsync-complete" ]; then
  [ "$(id -u)" -eq 0 ] || current_failed "making a chroot needs root"
  mirror=${WSYNC_DEBIAN_MIRROR:-}
  if [ -z "$mirror" ]; then
    # Either file may be missing: every step here may fail without ending setup.
    mirror=$( { cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true
                cat /etc/apt/sources.list 2>/dev/null || true; } |
              sed -n -e 's/^URIs: *\([^ ]*\).*/\1/p' -e 's/^deb  *\(\[[^]]*\] *\)\?\([^ ]*\).*/\2/p' |
              { grep -v -- '-security' || true; } | { grep '/debian/\?$' || true; } | sed -n 1p)
  fi
  [ -n "$mirror" ] || current_failed "no Debian mirror in /etc/apt (set WSYNC_DEBIAN_MIRROR)"
  say "making the current Emscripten's chroot (Debian sid, $mirror) in $sid: about a minute, 1 GB"
  mkdir -p "$(dirname "$sid")"
  rm -rf "$sid.partial"
  # sid's Release file is often past its Valid-Until date on mirrors.
  if ! mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
      --include=emscripten,googletest,cmake,make,nodejs,pkgconf \
      sid "$sid.partial" "$mirror" >"$sid.log" 2>&1; then
    tail -5 "$sid.log" >&2
    rm -rf "$sid.partial"
    current_failed "mmdebstrap failed"
  fi
  rm -rf "$sid"
  touch "$sid.partial/.wsync-complete"
  mv "$sid.partial" "$sid"
fi
current=$(bash "$root/scripts/current-emscripten.sh" --version) || current_failed "no version file"
# emcc builds its system libraries on first use (2 to 3 minutes on 2
# cores) into a cache kept in the chroot: build the ones wsync uses now, so
# the first build is not mistaken for a slow one.
if [ ! -e "$sid/var/cache/wsync-emcache/.wsync-warm-$current" ]; then
  say "building the current Emscripten's system libraries (once, 2 to 3 minutes)"
  warm="$root/build/.emcache-warm"
  mkdir -p "$warm"
  printf '#include <thread>\n#include <cstdio>\nint main() { std::thread([] { std::puts("ok"); }).join(); }\n' >"$warm/warm.cpp"
  if ! (cd "$warm" && bash "$root/scripts/current-emscripten.sh" bash -c \
        'em++ -O2 -pthread warm.cpp -o warm.js && em++ -O2 -pthread -fexceptions warm.cpp -o warm-eh.js' \
        >"$warm/log" 2>&1); then
    tail -20 "$warm/log" >&2
    current_failed "em++ could not build a pthread program"
  fi
  touch "$sid/var/cache/wsync-emcache/.wsync-warm-$current"
fi
say "current Emscripten $current (Debian sid chroot $sid), node $(bash "$root/scripts/current-emscripten.sh" node --version)"
