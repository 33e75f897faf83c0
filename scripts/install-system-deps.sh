#!/usr/bin/env bash
# Debian packages the tests use as real users' tools: Chromium for the browser tests,
# LibreOffice Calc to open the exported workbooks. Skipped quietly where present.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v soffice >/dev/null 2>&1 || need+=(libreoffice-calc)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
  echo "note: ${need[*]} not installed and no root: the tests that need them will skip" >&2
  exit 0
fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
