#!/bin/sh
# Installs Debian's chromium for the lab's browser tests (lab/tests/browser.py drives it with
# Playwright through executable_path=/usr/bin/chromium; Playwright's own browser downloads are
# never used). Runs apt-get as root, or through `sudo -n` otherwise (fails rather than asking for
# a password).
set -eu

if command -v chromium >/dev/null 2>&1; then
    echo "install-chromium: $(command -v chromium) already there"
    exit 0
fi
WHO=install-chromium
WHAT=chromium
. "$(dirname "$0")/apt.sh"
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core

if ! command -v chromium >/dev/null 2>&1; then
    echo "install-chromium: installed, but no chromium on PATH" >&2
    exit 1
fi
echo "install-chromium: $(command -v chromium)"
