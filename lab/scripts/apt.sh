# Sourced by the lab's install scripts before they run apt-get: sets $SUDO (empty as root,
# `sudo -n` otherwise, which fails rather than asking for a password) and exits with a message
# naming $WHO (the script) and $WHAT (what it installs) when there is no way to install.
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
else
    echo "$WHO: not root and no sudo: cannot install $WHAT" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "$WHO: no apt-get on this machine: install $WHAT by hand" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
