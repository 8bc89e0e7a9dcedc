#!/usr/bin/env bash
# Finds, and installs with apt-get when missing, what Vivace is built and run with: a JDK 17+ (with
# javac), Maven, Python 3.11+ with venv, and the lab's virtual environment. `./vivace` calls it
# whenever one of them is missing, so that the README's two commands work on a fresh Debian
# machine; run it yourself to set a machine up ahead of time. apt-get runs as root, or through
# `sudo -n` (which fails rather than asking for a password).
#
# Usage: bootstrap/toolchain.sh jdk             prints the JAVA_HOME of a JDK 17+ with javac:
#                                              $JAVA_HOME's or the one on PATH if it fits, else the
#                                              oldest under /usr/lib/jvm, else openjdk-17 installed
#        bootstrap/toolchain.sh maven           installs Maven (and a JDK) unless mvn is on PATH
#        bootstrap/toolchain.sh lab-venv EXTRAS prints the lab's venv python (lab/.venv), the lab
#                                              installed into it (editable) with EXTRAS, e.g.
#                                              "postgres,spark"; again when pyproject.toml changes
#        bootstrap/toolchain.sh                 all of them (the lab with the extras of `./vivace lab`
#                                              and of `./vivace test`)
# Messages go to stderr, answers to stdout; a tool that cannot be had exits 1 with the reason.
set -euo pipefail

VIVACE_HOME="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
LAB_DIR="$VIVACE_HOME/lab"
LAB_VENV="$LAB_DIR/.venv"
MIN_JAVA_VERSION=17
MIN_PYTHON_MINOR=11
APT_UPDATED=""

note() { echo "bootstrap: $*" >&2; }
die() { echo "bootstrap: $*" >&2; exit 1; }

apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "please install: $* (no apt-get here)"
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "please install: $* (apt-get needs root)"
    sudo=(sudo -n)
  fi
  note "installing $* with apt-get..."
  if [[ -z $APT_UPDATED ]]; then
    "${sudo[@]}" apt-get update -q >&2 || die "apt-get update failed"
    APT_UPDATED=1
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "$@" </dev/null >&2
}

# ---- JDK ----------------------------------------------------------------------

java_major_version() {
  local version="" release="${1%/bin/java}/release"
  [[ -f $release ]] && version="$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$release")"
  [[ -n $version ]] || version="$("$1" -version 2>&1 | awk -F'"' '/version/ { print $2; exit }')"
  version="${version#1.}"  # 1.8.0 -> 8.0
  version="${version%%[!0-9]*}"
  echo "${version:-0}"
}

is_usable_jdk() {
  [[ -n $1 && -x $1 && -x ${1%/java}/javac ]] && (( $(java_major_version "$1") >= MIN_JAVA_VERSION ))
}

# The java of $JAVA_HOME, else of PATH, else of the oldest JDK under /usr/lib/jvm, that is a usable
# JDK. The oldest: Vivace builds for Java 17, and Hadoop 3.4's UserGroupInformation fails on Java
# 23+ (Subject.getSubject is gone), so a newer JDK that came with something else is no better.
find_jdk_java() {
  local candidate oldest="" version oldest_version=""
  for candidate in "${JAVA_HOME:+$JAVA_HOME/bin/java}" "$(command -v java 2>/dev/null || true)"; do
    [[ -n $candidate && -e $candidate ]] || continue
    candidate="$(readlink -f "$candidate")"
    if is_usable_jdk "$candidate"; then
      echo "$candidate"
      return
    fi
  done
  for candidate in /usr/lib/jvm/*/bin/java; do
    [[ -e $candidate ]] || continue
    candidate="$(readlink -f "$candidate")"
    is_usable_jdk "$candidate" || continue
    version="$(java_major_version "$candidate")"
    if [[ -z $oldest ]] || (( version < oldest_version )); then
      oldest="$candidate"
      oldest_version="$version"
    fi
  done
  echo "$oldest"
}

jdk_home() {
  local java
  java="$(find_jdk_java)"
  if [[ -z $java ]]; then
    apt_install openjdk-17-jdk-headless || apt_install default-jdk-headless || die "could not install a JDK"
    java="$(find_jdk_java)"
    [[ -n $java ]] || die "no JDK $MIN_JAVA_VERSION+ with javac found after installing one"
  fi
  echo "${java%/bin/java}"
}

# ---- Maven --------------------------------------------------------------------

install_maven() {
  JAVA_HOME="$(jdk_home)"
  export JAVA_HOME
  command -v mvn >/dev/null 2>&1 || apt_install maven || die "could not install maven"
}

# ---- Python and the lab's virtual environment ----------------------------------

is_python_usable() {
  "$1" -c "import sys, venv, ensurepip; sys.exit(sys.version_info < (3, $MIN_PYTHON_MINOR))" 2>/dev/null
}

find_python() {
  local candidate
  for candidate in python3 python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null 2>&1 && is_python_usable "$(command -v "$candidate")"; then
      command -v "$candidate"
      return
    fi
  done
}

lab_venv() {
  local extras="$1" python stamp
  stamp="$LAB_VENV/.vivace-installed-$extras"
  if ! [[ -x $LAB_VENV/bin/python && -f $stamp && $stamp -nt $LAB_DIR/pyproject.toml ]]; then
    python="$(find_python)"
    if [[ -z $python ]]; then
      apt_install python3 python3-venv python3-pip || die "could not install Python 3.$MIN_PYTHON_MINOR+"
      python="$(find_python)"
      [[ -n $python ]] || die "no Python 3.$MIN_PYTHON_MINOR+ with venv found after installing one"
    fi
    note "installing the lab's Python packages into $LAB_VENV..."
    [[ -x $LAB_VENV/bin/python ]] || "$python" -m venv "$LAB_VENV" || die "could not create $LAB_VENV"
    "$LAB_VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$LAB_DIR[$extras]" >&2 \
      || die "pip could not install the lab: $LAB_VENV/bin/python -m pip install -e '$LAB_DIR[$extras]'"
    touch "$stamp"
  fi
  echo "$LAB_VENV/bin/python"
}

case "${1:-all}" in
  jdk) jdk_home ;;
  maven) install_maven ;;
  lab-venv)
    [[ $# -eq 2 ]] || die "usage: $0 lab-venv EXTRAS"
    lab_venv "$2" ;;
  all)
    install_maven
    lab_venv postgres,spark >/dev/null
    lab_venv test,spark >/dev/null ;;
  *) die "unknown tool: $1 (jdk, maven or lab-venv EXTRAS)" ;;
esac
