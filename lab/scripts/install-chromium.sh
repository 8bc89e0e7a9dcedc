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
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
else
    echo "install-chromium: not root and no sudo: cannot install chromium" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-chromium: no apt-get on this machine: install chromium by hand" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core

if ! command -v chromium >/dev/null 2>&1; then
    echo "install-chromium: installed, but no chromium on PATH" >&2
    exit 1
fi
echo "install-chromium: $(command -v chromium)"
