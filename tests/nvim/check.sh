#!/usr/bin/env bash
# A real editor on `carto lsp` (issue 35, D): headless Neovim (Debian's package, its built-in LSP
# client) opens a rules file with a mistake, receives the diagnostic, asks for completion and hover,
# and renames a parameter; check.lua says what it saw and fails on anything else. Installs neovim
# from the distribution's packages when it is missing.
# Usage: tests/nvim/check.sh [CARTO-BINARY]   (default: target/debug/carto, built if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
carto=$(realpath "${1:-target/debug/carto}" 2>/dev/null || echo target/debug/carto)
[ -x "$carto" ] || { cargo build --quiet; carto=$(realpath target/debug/carto); }
if ! command -v nvim >/dev/null; then
  echo "nvim check: installing neovim from the distribution's packages"
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
  $sudo_ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq neovim >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp tests/nvim/mistake.rules "$tmp/"
out="$tmp/report.txt"
CARTO="$carto" REPORT="$out" timeout 60 nvim --headless --clean \
  -c "luafile tests/nvim/check.lua" "$tmp/mistake.rules" || { cat "$out" 2>/dev/null; echo "nvim check: FAILED" >&2; exit 1; }
cat "$out"
echo "nvim check: ok"
