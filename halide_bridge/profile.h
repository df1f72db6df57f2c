// Where a scheduled pipeline's time goes, Func by Func, as Halide's sampling profiler sees
// it (the Profile target feature): what a cost model's per-stage terms are checked against.
#pragma once

#include <map>
#include <string>

#include <Halide.h>

#include "app.h"

namespace candor::halide_bridge {

struct FuncProfile {
  // Milliseconds per run in each Func's loops (its own work, not its producers'), by
  // Halide's name; Funcs inlined into others do not appear. "(allocation)" is the time in
  // halide_malloc and halide_free.
  std::map<std::string, double> func_ms;
  double total_ms = 0;  // per run, as the profiler measured it
  int samples = 0;      // the profiler's samples over every run (about one a millisecond)
  int runs = 0;
};

// How many runs of a pipeline that takes `runtime_ms` give the profiler, which samples
// about once a millisecond, some 300 samples (at least 10 runs, at most 3000).
int profile_runs_for(double runtime_ms);

// JIT-compiles the (scheduled) instance with the Profile feature added to `target` and
// runs it `runs` times after one untimed run, averaging the profiler's reports. The
// instance's inputs must be bound. Throws BridgeError when it fails to compile or run.
FuncProfile profile_instance(const AppInstance& inst, const Halide::Target& target, int runs);

}  // namespace candor::halide_bridge
