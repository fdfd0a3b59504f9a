#!/usr/bin/env bash
# The playground's CI (called by .ci/run): installs what is missing (Debian's Chromium, and Debian's
# wasm Rust when rustup has no wasm32 target; the npm packages from the committed lock), builds the
# site with build.sh (after the web crate's fmt, clippy and native tests), builds the native binary the tests compare with, and runs the browser tests.
set -euo pipefail
cd "$(dirname "$0")"
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v node >/dev/null || need+=(nodejs npm)
if ! { command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; }; then
  [ -d /usr/lib/rustlib/src/rust/library ] || need+=(rustc-web cargo-web rust-web-src)
  command -v wasm-ld >/dev/null || need+=(lld)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "web/ci.sh: installing ${need[*]}" >&2
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
# The web crate's own lint and native tests (a game to its end replays, sim chunks merge, ...).
cargo fmt --check
cargo clippy --locked --all-targets --quiet -- -D warnings
cargo test --locked --quiet
npm ci --no-audit --no-fund --loglevel=error
./build.sh
(cd .. && cargo build --locked --bin carto)
node tests/run.mjs "$@"
