// Autotuning: the most promising schedules a search found are compiled, verified against
// the reference and benchmarked, each in a child process with a time limit (a candidate that
// crashes or hangs is recorded and skipped), and the best measured one wins. Every result is
// appended to a journal (JSON lines) as soon as it is known, so an interrupted run resumes
// without measuring anything twice.
#pragma once

#include <string>
#include <vector>

#include "halide_bridge/schedule.h"

namespace candor::scheduler {

struct Measurement {
  bool ok = false;           // compiled, ran, matched the reference
  std::string failure;       // "timeout", "crash", or the step that failed and its message
  double runtime_ms = 0;     // median of the timed runs
  double wall_seconds = 0;   // of the whole measurement (compile included)
  bool from_journal = false;
};

struct AutotuneOptions {
  std::string worker;           // the candor executable (runs `candor measure`)
  double timeout_seconds = 120; // per candidate
  std::string journal;          // "" : no journal
  int threads = 0;              // 0: every core
  int timed_runs = 5;
};

// Measures `schedule` for app `app` in a child process (`candor measure`), or returns the
// journal's record of it.
Measurement measure(const std::string& app, const halide_bridge::Schedule& schedule,
                    const AutotuneOptions& options);

// The key identifying (app, schedule) in journals.
std::string measurement_key(const std::string& app, const halide_bridge::Schedule& schedule);

}  // namespace candor::scheduler
