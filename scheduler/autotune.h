// Autotuning: the most promising schedules a search found are compiled, verified against
// the reference and benchmarked, a few at a time in a child process with a time limit (a
// candidate that crashes or hangs is recorded and skipped), then the neighbours of the fastest (a measured
// local search, when the caller proposes them), and the best measured one wins. Every result is
// appended to a journal (JSON lines) as soon as it is known, so an interrupted run resumes
// without measuring anything twice.
//
// Comparisons that decide are measured side by side: a neighbour against its centre, the
// finalists against each other, timed run by run in one process. On a shared machine one
// schedule measured 4.1-5.8 ms in separate processes, while its ratio to another schedule
// timed alongside stayed within 0.73-0.78.
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
  double ratio_to_first = 0; // measured together: median over rounds of its time over the first's
  double wall_seconds = 0;   // of the whole measurement (compile included)
  bool from_journal = false;
};

struct AutotuneOptions {
  std::string worker;           // the candor executable (runs `candor measure`)
  double timeout_seconds = 120; // per candidate
  // A measuring process's step (one schedule's compile or verification, the reference, a
  // round of timed runs) that runs longer is killed. A compile that overruns fails that
  // schedule alone ("compile over N s"), and the others are measured again without it:
  // one of camera_pipe's schedules compiles in 192 s where its neighbours take 10, and it
  // once took most of an app's tuning time. The slowest compile of a verified pick in the
  // s29 head-to-head took 35 s.
  double step_timeout_seconds = 60;
  std::string journal;          // "" : no journal
  int threads = 0;              // 0: every core
  int timed_runs = 5;
  // A folder where the first measuring process leaves the reference outputs for the others
  // (`candor measure --reference-cache`); "": each computes them.
  std::string reference_cache;
  // The machine's timing lock (halide_bridge/timing_lock.h) the measuring processes time
  // under, exclusively; "": none.
  std::string timing_lock;
};

// Measures `schedules` of app `app` side by side in one child process (`candor measure
// --interleave`; one schedule: alone), or returns the journal's record of them. `repeat` > 0
// names a further measurement in a fresh process (its own journal record). A crash or a
// timeout is every schedule's failure, except a compile that overruns the step limit: that
// schedule fails, and the others (when it is not the first, their reference) are measured
// again together.
std::vector<Measurement> measure_together(const std::string& app, const std::vector<halide_bridge::Schedule>& schedules,
                                          const AutotuneOptions& options, int repeat = 0);

struct AutotuneResult {
  // Index of the fastest schedule among the given ones followed by every proposed one, in
  // the order proposed; -1: none compiled and matched.
  int chosen = -1;
  double runtime_ms = 0;    // its median over the processes that measured it
  size_t measured = 0;      // schedules measured (given and proposed)
  size_t proposed_measured = 0;  // of which proposed by the local search
  int centre_moves = 0;     // times a measured neighbour beat the centre and replaced it
  double seconds = 0;       // wall time (measurements and proposals)
  std::vector<std::pair<size_t, std::string>> failures;  // schedule index, failure
};

// Called after each measurement: the schedule's index, the repeat (0: first), the result.
using AutotuneProgress = std::function<void(size_t, int, const Measurement&)>;

// Called once per measuring process (or its journal record): the process's journal key, the
// indices of the schedules it timed side by side in their order (the first is the reference
// of every ratio_to_first) and their measurements. Such groups are the pairs a cost model is
// best checked on: one process's timings share its scale, which moves between processes.
using AutotuneProcessLog =
    std::function<void(const std::string&, const std::vector<size_t>&, const std::vector<Measurement>&)>;

// The measured local search. Once the given schedules are measured or `1 - share` of the
// seconds is spent, the fastest measured schedule is the centre and `propose(centre)` (an index
// as in AutotuneResult::chosen) gives its neighbours, measured `batch` at a time side by side
// with the centre (one process compiles the centre once for several), in the order
// proposed; the fastest of a batch, if `improvement` (a fraction) faster than the centre,
// becomes the next centre. Runs only under a time limit. `batch` also groups the given
// schedules (see autotune).
struct LocalSearch {
  std::function<std::vector<halide_bridge::Schedule>(size_t centre)> propose;
  double share = 0.5;
  double improvement = 0.05;
  int batch = 3;
};

// Measures `schedules` in order, `local.batch` a process side by side with the first one
// (which the first process measures with them), so that the model's order among them, which
// one process's timing cannot check, is checked on one scale; then the local search's
// proposals. It starts no new process once a typical measurement (the median so far) would
// overrun `seconds` (0: no limit; a measurement is never cut short, which would record a
// false timeout), keeping time for the finalists: the `finalists` fastest are measured side
// by side `confirmations` more times, each time in a fresh process, and the lowest median
// ratio to the first finalist wins (without confirmations, the fastest measured). The first
// schedule (the model's pick) is always a finalist, and another must be `local.improvement`
// faster than it to win. Some
// runtimes depend on the process (buffer alignment: matmul measured 4.5 ms in some processes
// and 9 ms in others), and a lucky measurement must repeat to win. A process that crashes or
// hangs is retried one schedule a process, so that only the culprit is recorded as failed.
AutotuneResult autotune(const std::string& app, const std::vector<halide_bridge::Schedule>& schedules,
                        const AutotuneOptions& options, double seconds, int finalists = 3,
                        int confirmations = 2, const AutotuneProgress& progress = {},
                        const LocalSearch& local = {}, const AutotuneProcessLog& processes = {});

// Model only: measures `schedules` (the model's order) one a process, in turn, until one
// compiles, runs and matches the reference, and chooses it: the model's pick unless it fails
// (Halide 14 miscompiles a few schedules: bench/head_to_head_results/2026-11-27_s30/
// README.md), then the next. The failures are recorded; nothing after the chosen one is
// measured.
AutotuneResult first_verified(const std::string& app, const std::vector<halide_bridge::Schedule>& schedules,
                              const AutotuneOptions& options, const AutotuneProgress& progress = {});

// Why measurements cannot be appended to the journal at `path` (created when missing), or ""
// when they can. Appending throws std::runtime_error when a write fails: a run believed
// resumable must not lose its measurements silently.
std::string journal_problem(const std::string& path);

// The key identifying (app, schedule) in journals.
std::string measurement_key(const std::string& app, const halide_bridge::Schedule& schedule);

}  // namespace candor::scheduler
