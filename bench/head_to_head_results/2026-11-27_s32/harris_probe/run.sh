#!/bin/bash
# harris, before stop 32's model change: the model-only pick (gray and both gradients at the
# root; predicted 1.003 ms), the best schedule with gray and the gradients computed per output
# tile (predicted 1.009 ms), and the best with the expert's structure (those per tile, the
# products and 3x3 sums inlined; predicted 1.034 ms), timed side by side. The first and third
# schedules' decisions are in gradients_at_root.pins and expert_structure.pins, for
# `candor search harris $(cat X.pins) --explain`.
# Usage, from the repository root: bench/head_to_head_results/2026-11-27_s32/harris_probe/run.sh
set -euo pipefail
here=bench/head_to_head_results/2026-11-27_s32/harris_probe
for process in 1 2; do
  build/bin/candor measure harris --schedules "$here/three_schedules.jsonl" --interleave --json |
    python3 -c 'import json, sys; print([(round(json.loads(l)["runtime_ms"], 3), round(json.loads(l)["ratio_to_first"], 3)) for l in sys.stdin])'
done
