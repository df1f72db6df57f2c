// Autotuning: the most promising schedules a search found are compiled, verified against
// the reference and benchmarked, each in a child process with a time limit (a candidate that
// crashes or hangs is recorded and skipped), and the best measured one wins. Every result is
// appended to a journal (JSON lines) as soon as it is known, so an interrupted run resumes
// without measuring anything twice.
#pragma once

#include <functional>
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
// journal's record of it. `repeat` > 0 names a further measurement in a fresh process (its
// own journal record).
Measurement measure(const std::string& app, const halide_bridge::Schedule& schedule,
                    const AutotuneOptions& options, int repeat = 0);

struct AutotuneResult {
  int chosen = -1;          // index of the fastest schedule; -1: none compiled and matched
  double runtime_ms = 0;    // its median over the processes that measured it
  size_t measured = 0;      // schedules measured (in order, from the first)
  double seconds = 0;       // wall time of all measurements
  std::vector<std::pair<size_t, std::string>> failures;  // schedule index, failure
};

// Called after each measurement: the schedule's index, the repeat (0: first), the result.
using AutotuneProgress = std::function<void(size_t, int, const Measurement&)>;

// Measures `schedules` in order, starting no new one once the longest measurement so far
// would overrun `seconds` (0: no limit; a measurement is never cut short, which would record
// a false timeout), keeping time for the finalists: the `finalists` fastest are measured
// `confirmations` more times, each in a fresh process, and the lowest median wins. Some
// runtimes depend on the process (buffer alignment: matmul measured 4.5 ms in some processes
// and 9 ms in others), and a lucky measurement must repeat to win.
AutotuneResult autotune(const std::string& app, const std::vector<halide_bridge::Schedule>& schedules,
                        const AutotuneOptions& options, double seconds, int finalists = 3,
                        int confirmations = 2, const AutotuneProgress& progress = {});

// The key identifying (app, schedule) in journals.
std::string measurement_key(const std::string& app, const halide_bridge::Schedule& schedule);

}  // namespace candor::scheduler
