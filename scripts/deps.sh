#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages the build, tests, samples and benchmarks need (only the missing
# ones). Sourced by scripts/test and scripts/demo.
POLYDEPTH_PACKAGES=(
  build-essential cmake ninja-build pkg-config clang
  libgtest-dev libbullet-dev libbullet-extras-dev libfcl-dev libccd-dev libassimp-dev
  libosmesa6-dev libglfw3-dev libpng-dev gnuplot-nox ffmpeg
  # The viewer's window test (tests/samples/test_window.cpp): an X server, Mesa's GLX driver
  # (llvmpipe), and synthetic key events.
  xvfb xauth libglx-mesa0 xdotool
  # The Python module (python/) and its tests and examples, for Debian's interpreter.
  pybind11-dev python3-dev python3-numpy python3-pytest python3-dask python3-distributed
  # pip install . into a virtual environment and the wheel (tests/python/test_venv.py), the type
  # checks, the clash example's progress bar, the API reference (scripts/docs).
  python3-venv python3-pip python3-setuptools python3-wheel python3-build python3-mypy python3-tqdm doxygen
)

polydepth_install_deps() {
  local missing=()
  for p in "${POLYDEPTH_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  echo "== installing Debian packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "error: need root (or sudo) to apt-get install: ${missing[*]}" >&2; return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq || { echo "error: apt-get update failed" >&2; return 1; }
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    { echo "error: apt-get install failed: ${missing[*]}" >&2; return 1; }
}
