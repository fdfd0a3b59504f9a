#!/usr/bin/env bash
# Builds the playground into web/dist/: carto.wasm (the carto library, release) and the page
# (index.html, app.js, worker.js for sim, play-worker.js for games, style), self-contained: any static host serves the folder as is.
# lsp-worker.js runs the language server (`carto lsp`'s, in its own carto.wasm) behind the editor.
#
# The wasm32 target comes from rustup when it has it (`rustup target add wasm32-unknown-unknown`);
# otherwise from Debian's rustc-web, cargo-web, rust-web-src and lld (the standard library built
# from source with -Zbuild-std, linked by wasm-ld). The script says which it used.
set -euo pipefail
cd "$(dirname "$0")"
WEB=$PWD
OUT=$WEB/dist
export CARGO_TARGET_DIR=$WEB/target
TARGET=wasm32-unknown-unknown

if command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
  echo "build.sh: Rust from rustup ($(rustc --version)), target $TARGET installed" >&2
  cargo build --release --locked --target $TARGET
elif [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ] && command -v wasm-ld >/dev/null; then
  echo "build.sh: rustup has no $TARGET; Debian's $(/usr/bin/rustc --version) (rustc-web) with -Zbuild-std and wasm-ld" >&2
  RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
    /usr/bin/cargo build --release --locked --target $TARGET -Zbuild-std=std,panic_abort
else
  echo "build.sh: no Rust for $TARGET: run \`rustup target add $TARGET\`, or (Debian) \`apt-get install rustc-web cargo-web rust-web-src lld\`" >&2
  exit 2
fi

[ -d node_modules/esbuild ] || npm ci --no-audit --no-fund
rm -rf "$OUT"
mkdir -p "$OUT"
cp "$CARGO_TARGET_DIR/$TARGET/release/carto_web.wasm" "$OUT/carto.wasm"
node_modules/.bin/esbuild page/app.js --bundle --minify --format=esm --outfile="$OUT/app.js" --log-level=warning
node_modules/.bin/esbuild page/worker.js --bundle --minify --format=esm --outfile="$OUT/worker.js" --log-level=warning
node_modules/.bin/esbuild page/play-worker.js --bundle --minify --format=esm --outfile="$OUT/play-worker.js" --log-level=warning
node_modules/.bin/esbuild page/lsp-worker.js --bundle --minify --format=esm --outfile="$OUT/lsp-worker.js" --log-level=warning
cp page/index.html page/style.css "$OUT/"
echo "build.sh: built $OUT ($(du -sh "$OUT" | cut -f1); carto.wasm $(gzip -9c "$OUT/carto.wasm" | wc -c) bytes gzipped)" >&2
