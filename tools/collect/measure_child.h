// Measures schedules of one pipeline in child processes (`candor measure SPEC --schedules
// FILE --reference-cache DIR`) with a time limit: a schedule that crashes or hangs the
// compiler or the pipeline costs one failed sample, never the collector.
//
// One child measures the schedules in turn (the Halide runtime is JIT-compiled once per
// process, about a second, and the pipeline described once), printing a result line as each
// is done. When it dies or runs out of time, the schedule it was on is recorded as a crash
// or a timeout and a new child takes the rest. A child gets the per-schedule limit for each
// result line (one schedule that hangs costs that limit, not the batch's), and that limit
// times the schedules it is given in all.
#pragma once

#include <string>
#include <vector>

#include "halide_bridge/schedule.h"

namespace candor::collect {

struct ChildMeasureOptions {
  std::string worker;           // the candor executable
  std::string reference_cache;  // passed to the worker ("" : none)
  std::string timing_lock;      // passed to the worker ("" : none)
  double timeout_seconds = 60;
  int threads = 0;  // 0: every core
  int runs = 5;     // timed runs; the median is kept
  double min_seconds = 0;  // further timed runs until they took this long in all
  // After this many schedules in a row timed out (the pipeline itself is too slow to build
  // or run: a reference that never finishes, a compile of minutes), the rest are recorded
  // as timeouts without being tried.
  int timeouts_to_give_up = 2;
};

struct ChildMeasurement {
  bool ok = false;
  std::string failure;  // "timeout", "crash", "mismatch: ...", "<step>: <error>"
  double runtime_ms = 0;
  double compile_ms = 0;
  double wall_seconds = 0;
};

// One result per schedule, in order.
std::vector<ChildMeasurement> measure_in_children(const std::string& pipeline_spec,
                                                  const std::vector<halide_bridge::Schedule>& schedules,
                                                  const ChildMeasureOptions& options);

}  // namespace candor::collect
