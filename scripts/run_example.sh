#!/usr/bin/env bash
# Sets everything up, then runs candor's main job on a built-in example.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/bin/candor block examples/blocks/fir8.bb --search bab --budget time=10s
