// One `candor search` run as a value: the options `candor search` and `candor report` share,
// and what the search found and measured, for the commands to print, plot or write as a page.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "autotune.h"
#include "halide_bridge/app.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/kernel_description.h"
#include "halide_bridge/timing_lock.h"
#include "models/halide/machine.h"
#include "scheduler.h"

namespace candor::cli {

struct SearchOptions {
  std::string app;
  std::string space = "cpu";
  std::string search = "beam";
  std::string budget = "time=30s";
  int autotune = 0;
  double autotune_timeout = 120;
  double autotune_step_timeout = scheduler::AutotuneOptions{}.step_timeout_seconds;
  double autotune_seconds = 0;  // 0: no limit
  double neighbour_share = 0.5;
  std::string journal;
  std::string samples;
  std::string machine;
  int threads = 0;
  int model_threads = 0;
  int runs = 5;
  int top = 0;  // 0: the pick alone; K: also the K best distinct schedules by predicted cost
  bool json = false;
  bool no_measure = false;
  std::vector<std::string> pins;
  std::string timing_lock = halide_bridge::default_timing_lock_path();
};

// Adds the options of a search (everything in SearchOptions but `app` and `json`) to `cmd`.
void add_search_options(CLI::App& cmd, SearchOptions& o);

// One measurement the run made: of tried[index], `repeat` 0 the first, at `seconds` after the
// search began.
struct TimedMeasurement {
  double seconds = 0;
  size_t index = 0;
  int repeat = 0;
  scheduler::Measurement measurement;
};

struct SearchRun {
  SearchOptions options;
  halide_bridge::App app;
  halide_bridge::KernelDescription kd;
  models::halide::MachineDescription machine;
  std::unique_ptr<scheduler::KernelScheduler> scheduler;
  scheduler::ScheduleOutcome outcome;
  // What was measured, in order: the search's candidates given to the measuring (model only, the
  // model's order; autotuning, its measuring order), autotuning's neighbours, then those of the
  // --top K best it left out. Without measuring: the search's candidates.
  std::vector<scheduler::ScheduledCandidate> tried;
  size_t searched = 0;         // tried[0, searched): the search's candidates given to the measuring
  size_t neighbours_end = 0;   // tried[searched, neighbours_end): autotuning's neighbours
  size_t chosen = 0;    // the pick, in tried
  bool measured = false;
  scheduler::AutotuneResult tuned;  // when measured
  std::vector<TimedMeasurement> measurements;
  // With options.top = K: the first measurement of outcome.candidates[i], i < K, or none (not
  // measured: --no-measure).
  std::vector<std::optional<scheduler::Measurement>> top_measurements;
  double wall_seconds = 0;  // the whole run: description, search and measurements

  const scheduler::ScheduledCandidate& pick() const { return tried.at(chosen); }
  // The K best distinct schedules by predicted cost (fewer when the search kept fewer).
  size_t top_count() const;
  // The label people read for tried[i]: "candidate N", "neighbour N" or "#R by predicted cost".
  std::string label(size_t i) const;
  bool is_neighbour(size_t i) const { return i >= searched && i < neighbours_end; }
};

// Runs the search (and, unless --no-measure, the measurements) that `options` describe.
// Progress goes to stderr unless options.json. Throws std::invalid_argument or
// std::runtime_error with a message for the user (an unknown app, a bad budget or pin, no
// schedule found, none verified).
std::unique_ptr<SearchRun> run_search(const SearchOptions& options);

// The measurements that failed: each candidate's index in tried, the failure, and its
// decisions as `--pin` arguments (to reproduce it).
nlohmann::json failures_json(const SearchRun& run);

// "measured X ms (verified)", "failed: WHY" or "not measured".
std::string measurement_text(const std::optional<scheduler::Measurement>& m);

// Runs a command that searches, and returns its exit status: a std::invalid_argument or
// std::runtime_error it throws is printed as "candor NAME: error: MESSAGE" (status 1).
int run_reporting_errors(const std::string& name, const std::function<int()>& command);

}  // namespace candor::cli
