#!/usr/bin/env bash
# Installs the Debian packages candor needs (only those missing), then configures and builds.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make bison flex libfmt-dev libgtest-dev libhalide14-0-dev llvm-14-tools
          nlohmann-json3-dev libcli11-dev gnuplot-nox python3-torch libopenmpi-dev openmpi-bin
          chromium)
scripts/install_packages.sh "${packages[@]}"

jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$jobs"
