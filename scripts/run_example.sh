#!/usr/bin/env bash
# Sets everything up, then runs candor's main job on built-in examples: schedule a Halide
# app for this machine (verified against the reference and benchmarked), and schedule the
# instructions of a basic block with branch-and-bound.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/bin/candor search unsharp_mask --search beam --budget time=20s
build/bin/candor block examples/blocks/fir8.bb --search dfbb --budget time=10s
