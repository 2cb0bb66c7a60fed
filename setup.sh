#!/usr/bin/env bash
# Install what juke needs on Debian 12 (bookworm) and build it into ./build.
# Idempotent: packages already present are not fetched again, and an
# existing build directory is rebuilt rather than set up anew.
# Run as root (or as a user with sudo). BUILD_DIR picks another build directory.
set -euo pipefail
cd "$(dirname "$0")"
build=${BUILD_DIR:-build}

packages=(
    build-essential pkg-config meson ninja-build python3
    llvm-19-dev lld-19 liblld-19-dev clang-19 g++
    libcmocka-dev libmsgpack-dev libxxhash-dev
    libamdhip64-dev rocm-device-libs
    clang-format-19
    python3-dev python3-numpy python3-pytest python3-mesonpy
    libopenmpi-dev openmpi-bin libpng-dev
)

missing=()
for p in "${packages[@]}"; do
    # dpkg-query fails, or says "deinstall"/"not-installed", when p is absent.
    if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" != installed ]; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup.sh: installing ${missing[*]}"
    sudo=()
    if [ "$(id -u)" != 0 ]; then
        if ! command -v sudo >/dev/null; then
            echo "setup.sh: run as root to install: ${missing[*]}" >&2
            exit 1
        fi
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq </dev/null
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" --buildtype=debugoptimized
fi
ninja -C "$build"
