// head_to_head: every example app scheduled by every contender, measured side by side in one
// run on this machine with one benchmarking procedure (issue 3's stock-autoscheduler
// comparison, issue 4's head-to-head).
//
// Contenders ("schedulers"):
//   naive          the pipeline as the app builds it (Halide's defaults: everything inline)
//   expert         the app's hand-written schedule
//   Mullapudi2016  Halide 14's stock plugin, parallelism = the number of cores
//   Adams2019      Halide 14's stock plugin, default machine parameters and weights
//   Li2018         Halide 14's stock plugin (gradient autoscheduler), default machine parameters
//   candor         `candor search APP --json --budget B` (model only)
//   candor_tuned   `candor search APP --json --autotune N --autotune-seconds S --budget B
//                  --journal ... --samples OUT/autotune_samples.jsonl` (opt-in): S is what
//                  --autotune-seconds leaves after B; the samples are every schedule it timed,
//                  by measuring process (docs/dataset.md), to check cost models near the optimum
//
// Every cell runs in a child process with a time limit (this same binary with `--one APP
// --scheduler NAME`), so a crash or a hang costs one cell, never the run. Every child
// computes the reference output itself (every Func at the root), verifies the contender's
// output against it, and benchmarks it the same way: the JIT thread pool at every core, one
// untimed warm-up run, the median of `--runs` timed runs. candor's schedules are measured by
// that same child (from the schedule JSON `candor search` prints), not by candor itself.
//
// A cell's median comes from one process, and on a shared machine one process's timing of a
// schedule drifts by +-20%. So after an app's cells, every contender that verified is timed
// again side by side (`--side-by-side`), in --side-by-side-processes fresh children: all
// compiled and verified, then rounds of one untimed and one timed run of each (odd rounds
// reversed) for at least --side-by-side-seconds, and each one's median per-round ratio to
// Adams2019's (which searches again there; the child reports whether it found the schedule
// its cell measured). The median over the children is the second table.
//
// Results are appended to OUT/cells.jsonl and OUT/cells.csv (OUT/side_by_side.jsonl) as soon
// as each cell (process) finishes; a rerun skips what is already there (`--fresh` starts
// over). At the end: a table on stdout,
// OUT/summary.csv (one row per app), OUT/relative_to_adams2019.dat and, when gnuplot is
// installed, OUT/head_to_head.png (bench/head_to_head_plot.gp).
#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "apps.h"
#include "child_process.h"
#include "comma_list.h"
#include "corpus.h"
#include "halide_bridge/compile.h"
#include "runtime/statistics.h"
#include "stock_schedulers.h"
#include "support/progress.h"

namespace fs = std::filesystem;
using nlohmann::json;
using candor::bench::split_list;

namespace {

namespace hb = candor::halide_bridge;

// The line prefix a child puts before its one JSON result (plugins may print to stdout).
constexpr const char* kResultTag = "HEAD_TO_HEAD_RESULT ";

// The baseline of the speedup columns and the plot.
constexpr const char* kBaseline = "Adams2019";

// An example app or a held-out corpus generator (bench/corpus).
const hb::App* find_any_app(const std::string& name) {
  if (const hb::App* app = candor::apps::find_app(name)) return app;
  return candor::corpus::find_app(name);
}

int core_count() { return int(std::max(1u, std::thread::hardware_concurrency())); }
int timing_threads(int threads) { return threads > 0 ? threads : core_count(); }

std::string self_exe() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("head_to_head") : p.string();
}

// ---------------------------------------------------------------------------------------
// Child mode: one app, one contender, one JSON line.

struct ChildOptions {
  std::string app;
  std::string scheduler;
  std::string schedule_file;  // scheduler "schedule": a halide_bridge schedule as JSON
  int runs = 10;
  int warmup = 1;
  int adams_beam_size = 0;  // 0: the plugin's default
  int threads = 0;          // worker threads that time a pipeline; 0: every core
};

// A fresh instance of `app` scheduled by `scheduler` (for "schedule": the JSON file), or
// nothing with out["failure"] set. A stock autoscheduler's search time and schedule source go
// into `out`.
std::optional<hb::AppInstance> contender_instance(const hb::App& app, const std::string& scheduler,
                                                  const std::string& schedule_file, int adams_beam_size,
                                                  const Halide::Target& target, json& out) {
  hb::AppInstance inst;
  if (scheduler == "schedule") {
    std::ifstream in(schedule_file);
    json j = json::parse(in, nullptr, false);
    if (!in || j.is_discarded()) {
      out["failure"] = "cannot read the schedule " + schedule_file;
      return std::nullopt;
    }
    std::string step, error;
    try {
      const hb::KernelDescription kd = hb::describe_app(app.build(), target);
      if (!hb::scheduled_instance(app, j.get<hb::Schedule>(), kd, target, inst, step, error)) {
        out["failure"] = step + ": " + error;
        return std::nullopt;
      }
    } catch (const std::exception& e) {  // a description that fails, JSON that is no schedule
      out["failure"] = std::string("schedule: ") + e.what();
      return std::nullopt;
    }
    return inst;
  }
  inst = app.build();
  if (scheduler == "expert") {
    inst.apply_expert_schedule(target);
  } else if (scheduler != "naive") {
    if (!candor::bench::is_stock_scheduler(scheduler)) {
      out["failure"] = "unknown scheduler " + scheduler;
      return std::nullopt;
    }
    if (scheduler == "Adams2019" && adams_beam_size > 0)
      setenv("HL_BEAM_SIZE", std::to_string(adams_beam_size).c_str(), 1);
    const Halide::MachineParams params = candor::bench::stock_machine_params(scheduler);
    out["machine_params"] = params.to_string();
    try {
      Halide::load_plugin(candor::bench::stock_plugin_path(scheduler));
      const auto t0 = std::chrono::steady_clock::now();
      // Halide 14: the plugin applies the schedule to the pipeline's Funcs and returns its
      // source.
      Halide::AutoSchedulerResults res = inst.pipeline().auto_schedule(scheduler, target, params);
      out["search_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      out["schedule"] = res.schedule_source;
    } catch (const Halide::Error& e) {
      out["failure"] = std::string("auto_schedule: ") + e.what();
      return std::nullopt;
    } catch (const std::exception& e) {
      out["failure"] = std::string("auto_schedule: ") + e.what();
      return std::nullopt;
    }
  }
  return inst;
}

// The reference output, or nothing with out["failure"] set.
std::optional<hb::Outputs> reference_for(const hb::App& app, const Halide::Target& target, json& out) {
  try {
    return hb::reference_outputs(app, target);
  } catch (const std::exception& e) {
    out["failure"] = std::string("reference: ") + e.what();
    return std::nullopt;
  }
}

json run_one(const ChildOptions& o) {
  json out = {{"app", o.app}, {"scheduler", o.scheduler}, {"ok", false}};
  const hb::App* app = find_any_app(o.app);
  if (!app) {
    out["failure"] = "unknown app";
    return out;
  }
  const Halide::Target target = hb::host_target();
  hb::set_jit_threads(o.threads, target);  // from the first compilation on
  hb::RunOptions run;
  run.threads = o.threads;
  run.warmup_runs = o.warmup;
  run.timed_runs = o.runs;
  out["runs"] = o.runs;
  out["threads"] = timing_threads(o.threads);
  const std::optional<hb::Outputs> reference = reference_for(*app, target, out);
  if (!reference) return out;
  const std::optional<hb::AppInstance> inst =
      contender_instance(*app, o.scheduler, o.schedule_file, o.adams_beam_size, target, out);
  if (!inst) return out;
  const hb::EvalResult r = hb::evaluate_instance(*inst, *reference, target, run);
  out["compile_ms"] = r.compile_ms;
  if (!r.ok) {
    out["failure"] = r.failed_step + ": " + r.error;
    return out;
  }
  out["ok"] = true;
  out["runtime_ms"] = r.median_ms;
  out["run_ms"] = r.run_ms;
  return out;
}

// Every contender of one app in this process, timed in interleaved rounds (one run of each
// per round, for at least `seconds`): each one's median per-round ratio to the first's
// (the baseline). A stock autoscheduler searches again here; its source is returned so the
// driver can check it is the schedule its own cell measured.
json run_side_by_side(const ChildOptions& o, const std::vector<std::string>& contenders, const fs::path& schedules,
                      double seconds) {
  json out = {{"app", o.app}, {"contenders", json::array()}};
  const hb::App* app = find_any_app(o.app);
  if (!app) {
    out["failure"] = "unknown app";
    return out;
  }
  const Halide::Target target = hb::host_target();
  hb::set_jit_threads(o.threads, target);
  const std::optional<hb::Outputs> reference = reference_for(*app, target, out);
  if (!reference) return out;
  std::vector<json> rows;
  std::vector<hb::AppInstance> instances;
  std::vector<size_t> built;  // rows with an instance, in `instances` order
  for (const std::string& name : contenders) {
    json row = {{"scheduler", name}, {"ok", false}};
    const bool from_file = name == "candor" || name == "candor_tuned";
    const std::string file = from_file ? (schedules / (o.app + "." + name + ".json")).string() : "";
    std::optional<hb::AppInstance> inst =
        contender_instance(*app, from_file ? "schedule" : name, file, o.adams_beam_size, target, row);
    if (inst) {
      built.push_back(rows.size());
      instances.push_back(std::move(*inst));
    }
    rows.push_back(row);
  }
  std::vector<const hb::AppInstance*> pointers;
  for (const hb::AppInstance& i : instances) pointers.push_back(&i);
  hb::RunOptions run;
  run.warmup_runs = o.warmup;
  run.timed_runs = o.runs;
  run.min_timed_seconds = seconds;
  run.threads = o.threads;
  const std::vector<hb::EvalResult> results = hb::evaluate_instances_interleaved(pointers, *reference, target, run);
  const bool baseline_timed = !built.empty() && built[0] == 0 && results[0].ok;
  for (size_t k = 0; k < built.size(); ++k) {
    json& row = rows[built[k]];
    const hb::EvalResult& r = results[k];
    if (!r.ok) {
      row["failure"] = r.failed_step + ": " + r.error;
      continue;
    }
    row["ok"] = true;
    row["runtime_ms"] = r.median_ms;
    row["rounds"] = r.run_ms.size();
    if (baseline_timed) row["ratio_to_first"] = r.ratio_to_first;
  }
  out["contenders"] = rows;
  return out;
}

int child_main(const ChildOptions& o, const std::string& side_by_side, const std::string& schedules,
               double seconds) {
  json out;
  try {
    out = side_by_side.empty() ? run_one(o) : run_side_by_side(o, split_list(side_by_side), schedules, seconds);
  } catch (const std::exception& e) {
    out = {{"app", o.app}, {"scheduler", o.scheduler}, {"ok", false}, {"failure", e.what()}};
  }
  std::cout << kResultTag << out.dump() << std::endl;
  return 0;
}

// ---------------------------------------------------------------------------------------
// Driver mode.

struct Options {
  std::string apps;  // comma separated; empty: all
  std::string out_dir = "bench_results";
  std::string budget = "time=30s";
  double autotune_seconds = 0;  // > 0: add the autotuned candor column, this long per app
  int autotune_count = 64;
  int runs = 10;
  int warmup = 1;
  int adams_beam_size = 0;
  int threads = 0;  // worker threads that time each pipeline; 0: every core
  double timeout = 600;          // per stock autoscheduler cell (search + compile + runs)
  double measure_timeout = 300;  // per naive / expert / candor-measure cell
  std::string schedulers;        // comma separated subset; empty: all
  std::string candor;            // the candor executable; default: next to this one
  bool corpus = false;  // with no --apps: the held-out corpus rather than the example apps
  bool fresh = false;
  bool retry_failed = false;
  bool quick = false;
  bool no_plot = false;
  double side_by_side_seconds = 3;  // 0: no side-by-side timing per app
  int side_by_side_processes = 3;
};

std::string csv_field(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > 300) s = s.substr(0, 300) + "...";
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

double num(const json& j, const char* key, double fallback = NAN) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

// The finished cells of a run, keyed by (app, scheduler); persisted as JSON lines + CSV.
class Journal {
 public:
  explicit Journal(const fs::path& dir) : jsonl_(dir / "cells.jsonl"), csv_(dir / "cells.csv") {
    std::ifstream in(jsonl_);
    std::string line;
    while (std::getline(in, line)) {
      json j = json::parse(line, nullptr, false);
      if (j.is_object() && j.contains("app") && j.contains("scheduler"))
        cells_[{j["app"].get<std::string>(), j["scheduler"].get<std::string>()}] = j;
    }
  }
  const json* find(const std::string& app, const std::string& scheduler) const {
    auto it = cells_.find({app, scheduler});
    return it == cells_.end() ? nullptr : &it->second;
  }
  void add(const json& cell) {
    cells_[{cell["app"].get<std::string>(), cell["scheduler"].get<std::string>()}] = cell;
    {
      std::ofstream out(jsonl_, std::ios::app);
      out << cell.dump() << "\n";
    }
    const bool header = !fs::exists(csv_);
    std::ofstream out(csv_, std::ios::app);
    if (header)
      out << "app,scheduler,status,runtime_ms,search_seconds,compile_ms,wall_seconds,runs,threads,failure\n";
    auto f = [](double v) { return std::isnan(v) ? std::string() : fmt::format("{:.6g}", v); };
    out << cell["app"].get<std::string>() << "," << cell["scheduler"].get<std::string>() << ","
        << cell.value("status", std::string("?")) << "," << f(num(cell, "runtime_ms")) << ","
        << f(num(cell, "search_seconds")) << "," << f(num(cell, "compile_ms")) << ","
        << f(num(cell, "wall_seconds")) << "," << f(num(cell, "runs")) << "," << f(num(cell, "threads")) << ","
        << csv_field(cell.value("failure", std::string())) << "\n";
  }

 private:
  fs::path jsonl_, csv_;
  std::map<std::pair<std::string, std::string>, json> cells_;
};

// The last line of `output` that starts with `prefix`, without it.
std::optional<std::string> tagged_line(const std::string& output, const std::string& prefix) {
  std::optional<std::string> found;
  std::stringstream ss(output);
  std::string line;
  while (std::getline(ss, line))
    if (line.rfind(prefix, 0) == 0) found = line.substr(prefix.size());
  return found;
}

std::string child_failure(const candor::scheduler::ChildResult& c) {
  if (c.timed_out) return "timeout";
  if (c.crashed) return "crash";
  return fmt::format("exit status {} without a result", c.exit_status);
}

// The cells run this program and candor as children: rebuilding either under a running
// comparison deletes the file, and every later cell would fail with exit status 127.
void require_unchanged_executables(const std::string& candor) {
  const std::string self = self_exe();
  const std::string deleted = " (deleted)";
  auto gone = [&](const std::string& p) {
    return (p.size() > deleted.size() && p.compare(p.size() - deleted.size(), deleted.size(), deleted) == 0) ||
           !fs::exists(p);
  };
  if (gone(self) || gone(candor))
    throw std::runtime_error("'" + (gone(self) ? self : candor) +
                             "' was replaced or removed while this comparison ran (rebuilt?); the cells done so far "
                             "are kept: run the same command again to go on");
}

class Driver {
 public:
  Driver(const Options& o, const fs::path& out_dir) : o_(o), out_(out_dir), journal_(out_dir) {
    candor_ = o.candor.empty() ? (fs::path(self_exe()).parent_path() / "candor").string() : o.candor;
    std::ifstream in(out_ / "side_by_side.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      json j = json::parse(line, nullptr, false);
      if (j.is_object() && j.contains("app") && j.contains("contenders"))
        side_by_side_[j["app"].get<std::string>()].push_back(j);
    }
  }

  // The options a `head_to_head --one` child times with, as this driver was given them.
  void add_timing_options(std::vector<std::string>& argv) const {
    argv.insert(argv.end(), {"--runs", std::to_string(o_.runs), "--warmup", std::to_string(o_.warmup)});
    if (o_.adams_beam_size > 0) argv.insert(argv.end(), {"--adams-beam-size", std::to_string(o_.adams_beam_size)});
    if (o_.threads > 0) argv.insert(argv.end(), {"--threads", std::to_string(o_.threads)});
  }

  // Runs `head_to_head --one` in a child process.
  json measure_child(const std::string& app, const std::string& scheduler, const std::string& schedule_file,
                     double timeout) {
    require_unchanged_executables(candor_);
    std::vector<std::string> argv = {self_exe(), "--one", app, "--scheduler", scheduler};
    if (!schedule_file.empty()) argv.insert(argv.end(), {"--schedule-file", schedule_file});
    add_timing_options(argv);
    candor::scheduler::ChildResult c = candor::scheduler::run_child(argv, timeout);
    json cell;
    if (auto line = tagged_line(c.output, kResultTag)) cell = json::parse(*line, nullptr, false);
    if (!cell.is_object()) cell = {{"ok", false}, {"failure", child_failure(c)}};
    cell["wall_seconds"] = c.seconds;
    return cell;
  }

  // `candor search` in a child process, then its schedule measured by our own child.
  json candor_cell(const std::string& app, bool tuned) {
    require_unchanged_executables(candor_);
    std::vector<std::string> argv = {candor_, "search", app, "--json", "--budget", o_.budget};
    double timeout = budget_seconds() + 300;
    if (tuned) {
      // The search's budget, then candidates measured until the app's time is spent.
      fs::create_directories(out_ / "journals");
      const double measuring = std::max(10.0, o_.autotune_seconds - budget_seconds());
      argv.insert(argv.end(), {"--autotune", std::to_string(o_.autotune_count), "--autotune-seconds",
                               fmt::format("{:.0f}", measuring), "--journal",
                               (out_ / "journals" / (app + ".jsonl")).string(), "--samples",
                               (out_ / "autotune_samples.jsonl").string()});
      timeout = budget_seconds() + measuring + 300;
    }
    candor::scheduler::ChildResult c = candor::scheduler::run_child(argv, timeout);
    json found;
    std::stringstream ss(c.output);
    std::string line;
    while (std::getline(ss, line))
      if (!line.empty() && line[0] == '{') found = json::parse(line, nullptr, false);
    if (!found.is_object() || !found.contains("schedule_json")) {
      json cell = {{"ok", false}, {"failure", "candor search: " + child_failure(c)}};
      if (!c.timed_out && !c.crashed && c.exit_status == 1) cell["failure"] = "candor search: no verified schedule";
      cell["wall_seconds"] = c.seconds;
      return cell;
    }
    const std::string name = tuned ? "candor_tuned" : "candor";
    fs::create_directories(out_ / "schedules");
    const fs::path file = out_ / "schedules" / (app + "." + name + ".json");
    std::ofstream(file) << found["schedule_json"].dump(2) << "\n";
    json cell = measure_child(app, "schedule", file.string(), o_.measure_timeout);
    double search = num(found, "search_seconds", 0);
    if (tuned) search += num(found, "autotune_seconds", 0);
    cell["search_seconds"] = search;
    cell["candor_runtime_ms"] = num(found, "runtime_ms");
    cell["predicted_ms"] = num(found, "predicted_ms");
    cell["lower_bound_ms"] = num(found, "lower_bound_ms");
    cell["schedule"] = found.value("schedule", std::string());
    cell["wall_seconds"] = num(cell, "wall_seconds", 0) + c.seconds;
    return cell;
  }

  double budget_seconds() const {
    for (const std::string& part : split_list(o_.budget)) {
      if (part.rfind("time=", 0) != 0) continue;
      std::string v = part.substr(5);
      double scale = 1;
      if (!v.empty() && v.back() == 's') v.pop_back();
      if (!v.empty() && v.back() == 'm') v.pop_back(), scale = 60;
      try {
        return std::stod(v) * scale;
      } catch (const std::exception&) {
        return 60;
      }
    }
    return 60;
  }

  // Whether the journal holds the cell's result already (it is then not run again).
  bool done_before(const std::string& app, const std::string& s) const {
    const json* done = journal_.find(app, s);
    return done && ((*done)["ok"].get<bool>() || !o_.retry_failed);
  }

  void run(const std::vector<std::string>& apps, const std::vector<std::string>& schedulers) {
    const size_t total = apps.size() * schedulers.size();
    size_t index = 0, to_run = 0, ran = 0;
    for (const std::string& app : apps)
      for (const std::string& s : schedulers) to_run += done_before(app, s) ? 0 : 1;
    // The time left follows the cells run now, not those the journal holds.
    candor::support::ProgressLine line("h2h", std::cerr, candor::support::ProgressLine::Mode::Plain, 0);
    for (const std::string& app : apps) {
      for (const std::string& s : schedulers) {
        ++index;
        const json* done = journal_.find(app, s);
        if (done_before(app, s)) {
          std::cerr << fmt::format("[h2h] {:3}/{} {:<26} {:<14} done before: {}\n", index, total, app, s,
                                   describe(*done));
          continue;
        }
        std::cerr << fmt::format("[h2h] {:3}/{} {:<26} {:<14} running...\n", index, total, app, s) << std::flush;
        json cell;
        if (s == "candor" || s == "candor_tuned") {
          cell = candor_cell(app, s == "candor_tuned");
        } else {
          const bool stock = candor::bench::is_stock_scheduler(s);
          cell = measure_child(app, s, "", stock ? o_.timeout : o_.measure_timeout);
        }
        cell["app"] = app;
        cell["scheduler"] = s;
        cell["status"] = cell["ok"].get<bool>() ? "ok" : "failed";
        if (!cell.contains("runs")) cell["runs"] = o_.runs;
        if (!cell.contains("threads")) cell["threads"] = core_count();
        save_schedule_source(cell);
        journal_.add(cell);
        line.update(double(++ran) / double(to_run),
                    fmt::format("{:3}/{} {:<26} {:<14} {}", index, total, app, s, describe(cell)));
      }
      side_by_side(app, schedulers);
    }
  }

  // All contenders of `app` timed together in a child (run_side_by_side), in
  // --side-by-side-processes fresh processes per app and output folder (a rerun runs the
  // missing ones). A cell's single-process median carries +-20% on this machine; a ratio
  // measured round by round in one process is steadier, but some of its error belongs to the
  // process (where buffers and code land), hence several.
  void side_by_side(const std::string& app, const std::vector<std::string>& schedulers) {
    if (o_.side_by_side_seconds <= 0) return;
    std::vector<std::string> contenders;
    if (std::count(schedulers.begin(), schedulers.end(), kBaseline)) contenders.push_back(kBaseline);
    for (const std::string& s : schedulers) {
      const json* c = journal_.find(app, s);
      if (s != kBaseline && c && (*c)["ok"].get<bool>()) contenders.push_back(s);
    }
    if (contenders.size() < 2 || contenders[0] != kBaseline) return;
    std::string list;
    for (const std::string& s : contenders) list += (list.empty() ? "" : ",") + s;
    for (int p = int(side_by_side_[app].size()); p < o_.side_by_side_processes; ++p) {
      require_unchanged_executables(candor_);
      std::cerr << fmt::format("[h2h]         {:<26} side by side {}/{}: {}...\n", app, p + 1,
                               o_.side_by_side_processes, list)
                << std::flush;
      std::vector<std::string> argv = {self_exe(), "--one", app, "--side-by-side", list, "--schedule-dir",
                                       (out_ / "schedules").string(), "--side-by-side-seconds",
                                       fmt::format("{}", o_.side_by_side_seconds)};
      add_timing_options(argv);
      candor::scheduler::ChildResult c = candor::scheduler::run_child(argv, o_.timeout + o_.measure_timeout);
      json row;
      if (auto line = tagged_line(c.output, kResultTag)) row = json::parse(*line, nullptr, false);
      if (!row.is_object() || !row.contains("contenders")) {
        std::cerr << fmt::format("[h2h]         {:<26} side by side FAILED: {}\n", app, child_failure(c));
        return;
      }
      row["app"] = app;
      row["wall_seconds"] = c.seconds;
      std::string said;
      for (json& r : row["contenders"]) {
        const std::string s = r["scheduler"].get<std::string>();
        // A stock autoscheduler searched again: is it the schedule its own cell measured?
        if (r.contains("schedule")) {
          std::ifstream in(out_ / "schedules" / (app + "." + s + ".cpp"));
          std::stringstream cell_source;
          cell_source << in.rdbuf();
          r["same_schedule_as_cell"] = in && cell_source.str() == r["schedule"].get<std::string>();
          r.erase("schedule");
        }
        // Without the baseline (its schedule failed) a contender that ran shows its runtime.
        std::string shown = "FAIL";
        if (r.contains("ratio_to_first"))
          shown = fmt::format("{:.3f}", r["ratio_to_first"].get<double>());
        else if (r.value("ok", false) && r.contains("runtime_ms"))
          shown = fmt::format("{:.4g} ms", r["runtime_ms"].get<double>());
        said += fmt::format("  {} {}", s, shown);
      }
      side_by_side_[app].push_back(row);
      std::ofstream(out_ / "side_by_side.jsonl", std::ios::app) << row.dump() << "\n";
      std::cerr << fmt::format("[h2h]         {:<26} side by side (runtime / {}):{}\n", app, kBaseline, said);
    }
  }

  // Runtime of `scheduler` over the baseline's on `app`, timed side by side: the median over
  // the processes that timed both (NAN: none).
  double side_by_side_ratio(const std::string& app, const std::string& scheduler) const {
    auto it = side_by_side_.find(app);
    if (it == side_by_side_.end()) return NAN;
    std::vector<double> ratios;
    for (const json& process : it->second)
      for (const json& r : process["contenders"])
        if (r["scheduler"] == scheduler && r.contains("ratio_to_first")) ratios.push_back(r["ratio_to_first"].get<double>());
    return ratios.empty() ? NAN : candor::median(ratios);
  }

  void save_schedule_source(json& cell) {
    if (!cell.contains("schedule")) return;
    fs::create_directories(out_ / "schedules");
    std::ofstream(out_ / "schedules" /
                  (cell["app"].get<std::string>() + "." + cell["scheduler"].get<std::string>() + ".cpp"))
        << cell["schedule"].get<std::string>();
    cell.erase("schedule");  // keep the journal lines short
  }

  static std::string describe(const json& cell) {
    std::string s = cell["ok"].get<bool>() ? fmt::format("{:.3f} ms", num(cell, "runtime_ms"))
                                           : "FAILED (" + cell.value("failure", std::string("?")).substr(0, 160) + ")";
    if (!std::isnan(num(cell, "search_seconds"))) s += fmt::format(", search {:.1f} s", num(cell, "search_seconds"));
    return s;
  }

  // Runtime over the baseline's per app, timed side by side in one process; the geomean and
  // the apps where a contender is slower than the baseline.
  void side_by_side_table(const std::vector<std::string>& apps, const std::vector<std::string>& schedulers) const {
    std::vector<std::string> shown;
    for (const std::string& s : schedulers)
      if (s != kBaseline) shown.push_back(s);
    std::string header = fmt::format("{:<26}", std::string("side by side: / ") + kBaseline);
    for (const std::string& s : shown) header += fmt::format(" {:>13}", s);
    std::cout << "\n" << header << "\n" << std::string(header.size(), '-') << "\n";
    std::map<std::string, std::pair<double, int>> log_sum;  // by contender
    std::map<std::string, std::vector<std::string>> slower;
    for (const std::string& app : apps) {
      std::string row = fmt::format("{:<26}", app);
      for (const std::string& s : shown) {
        const double r = side_by_side_ratio(app, s);
        row += fmt::format(" {:>13}", std::isnan(r) ? std::string("-") : fmt::format("{:.3f}", r));
        if (std::isnan(r) || r <= 0) continue;
        log_sum[s].first += std::log(r);
        ++log_sum[s].second;
        if (r > 1) slower[s].push_back(app);
      }
      std::cout << row << "\n";
    }
    std::cout << std::string(header.size(), '-') << "\n";
    std::string geo = fmt::format("{:<26}", "geomean (n)");
    for (const std::string& s : shown) {
      const auto [sum, n] = log_sum.count(s) ? log_sum.at(s) : std::pair<double, int>{0, 0};
      geo += fmt::format(" {:>13}", n ? fmt::format("{:.3f} ({})", std::exp(sum / n), n) : std::string("-"));
    }
    std::cout << geo << "\n";
    for (const std::string& s : shown) {
      std::string list;
      for (const std::string& a : slower[s]) list += (list.empty() ? "" : ", ") + a;
      std::cout << fmt::format("{} slower than {} on {} apps{}{}\n", s, kBaseline, slower[s].size(),
                               list.empty() ? "" : ": ", list);
    }
    std::cout << "Median over " << o_.side_by_side_processes
              << " processes of the median over interleaved rounds (one warm-up and one timed run of each contender per "
                 "round, for at least "
              << o_.side_by_side_seconds << " s) of runtime / " << kBaseline << "'s.\n";
  }

  // How far candor's cost model was from the measured runtime of the schedule it emitted:
  // the median and worst |log(predicted / measured)| over the apps, as ratios.
  void prediction_error_lines(const std::vector<std::string>& apps, const std::vector<std::string>& schedulers) const {
    for (const std::string& s : {std::string("candor"), std::string("candor_tuned")}) {
      if (!std::count(schedulers.begin(), schedulers.end(), s)) continue;
      std::vector<double> errors;  // |log(predicted / measured)| per app
      std::string worst_app;
      for (const std::string& app : apps) {
        const json* c = journal_.find(app, s);
        if (!c || !(*c)["ok"].get<bool>()) continue;
        const double predicted = num(*c, "predicted_ms"), measured = num(*c, "runtime_ms");
        if (!(predicted > 0 && measured > 0)) continue;
        const double error = std::abs(std::log(predicted / measured));
        if (errors.empty() || error > *std::max_element(errors.begin(), errors.end())) worst_app = app;
        errors.push_back(error);
      }
      if (errors.empty()) continue;
      const double worst = *std::max_element(errors.begin(), errors.end());
      const long beyond = std::count_if(errors.begin(), errors.end(), [](double e) { return e > std::log(3.0); });
      std::cout << fmt::format("{} prediction error (predicted vs measured runtime of its schedule, {} apps): median "
                               "{:.2f}x, worst {:.2f}x ({}), {} beyond 3x\n",
                               s, errors.size(), std::exp(candor::median(errors)), std::exp(worst), worst_app, beyond);
    }
  }

  // The table, the summary CSV, the plot's data and the plot.
  int report(const std::vector<std::string>& apps, const std::vector<std::string>& schedulers) {
    auto runtime = [&](const std::string& app, const std::string& s) -> double {
      const json* c = journal_.find(app, s);
      return c && (*c)["ok"].get<bool>() ? num(*c, "runtime_ms") : NAN;
    };
    auto search = [&](const std::string& app, const std::string& s) -> double {
      const json* c = journal_.find(app, s);
      return c ? num(*c, "search_seconds") : NAN;
    };
    auto cell_text = [&](const std::string& app, const std::string& s) -> std::string {
      const json* c = journal_.find(app, s);
      if (!c) return "-";
      if (!(*c)["ok"].get<bool>()) return c->value("failure", std::string()) == "timeout" ? "timeout" : "FAIL";
      return fmt::format("{:.4g}", num(*c, "runtime_ms"));
    };
    const bool has_base = std::count(schedulers.begin(), schedulers.end(), kBaseline) > 0;
    const bool has_naive = std::count(schedulers.begin(), schedulers.end(), "naive") > 0;
    std::vector<std::string> searched;  // the contenders whose search time is reported
    for (const std::string& s : schedulers)
      if (s != "naive" && s != "expert") searched.push_back(s);
    const std::string focus = std::count(schedulers.begin(), schedulers.end(), "candor_tuned")
                                  ? "candor_tuned"
                                  : (std::count(schedulers.begin(), schedulers.end(), "candor") ? "candor" : "");

    auto short_name = [](const std::string& s) {
      if (s == "Mullapudi2016") return std::string("Mull2016");
      if (s == "Adams2019") return std::string("Adams2019");
      if (s == "candor_tuned") return std::string("cand-tuned");
      return s;
    };
    std::string header = fmt::format("{:<26}", "app (runtime ms)");
    for (const std::string& s : schedulers) header += fmt::format(" {:>10}", short_name(s));
    for (const std::string& s : searched) header += fmt::format(" {:>10}", short_name(s).substr(0, 7) + " s");
    if (!focus.empty() && has_base) header += fmt::format(" {:>10}", "A19/" + short_name(focus).substr(0, 6));
    if (!focus.empty() && has_naive) header += fmt::format(" {:>10}", "nv/" + short_name(focus).substr(0, 6));
    std::cout << header << "\n" << std::string(header.size(), '-') << "\n";
    for (const std::string& app : apps) {
      std::string row = fmt::format("{:<26}", app);
      for (const std::string& s : schedulers) row += fmt::format(" {:>10}", cell_text(app, s));
      for (const std::string& s : searched) {
        const double v = search(app, s);
        row += fmt::format(" {:>10}", std::isnan(v) ? std::string("-") : fmt::format("{:.1f}", v));
      }
      auto ratio = [&](double a, double b) {
        return std::isnan(a) || std::isnan(b) ? std::string("-") : fmt::format("{:.2f}x", a / b);
      };
      if (!focus.empty() && has_base) row += fmt::format(" {:>10}", ratio(runtime(app, kBaseline), runtime(app, focus)));
      if (!focus.empty() && has_naive) row += fmt::format(" {:>10}", ratio(runtime(app, "naive"), runtime(app, focus)));
      std::cout << row << "\n";
    }
    std::cout << std::string(header.size(), '-') << "\n";

    // Geomeans over the apps where both sides verified.
    auto geomean_ratio = [&](const std::string& num_s, const std::string& den_s, int* count) {
      double sum = 0;
      int n = 0;
      for (const std::string& app : apps) {
        const double a = runtime(app, num_s), b = runtime(app, den_s);
        if (std::isnan(a) || std::isnan(b) || a <= 0 || b <= 0) continue;
        sum += std::log(a / b);
        ++n;
      }
      *count = n;
      return n ? std::exp(sum / n) : NAN;
    };
    // Each contender's runtime over `den`'s (or, with `speedup`, den's over the contender's).
    auto geo_row = [&](const std::string& label, const std::string& den, bool speedup) {
      std::string row = fmt::format("{:<26}", label);
      for (const std::string& s : schedulers) {
        int n = 0;
        const double g = speedup ? geomean_ratio(den, s, &n) : geomean_ratio(s, den, &n);
        row += fmt::format(" {:>10}", std::isnan(g) ? std::string("-") : fmt::format("{:.3g} ({})", g, n));
      }
      std::cout << row << "\n";
    };
    const bool has_expert = std::count(schedulers.begin(), schedulers.end(), "expert") > 0;
    if (has_base) geo_row("geomean runtime/Adams2019", kBaseline, false);
    if (has_expert) geo_row("geomean runtime/expert", "expert", false);
    if (has_naive) geo_row("geomean speedup vs naive", "naive", true);
    std::cout << "(n): apps where both verified. Ratios of medians of " << o_.runs << " timed runs, "
              << timing_threads(o_.threads) << " threads; search s = seconds to produce the schedule.\n";
    if (has_expert && !focus.empty()) {
      std::string list;
      for (const std::string& app : apps) {
        const double r = runtime(app, focus) / runtime(app, "expert");
        if (r > 2) list += fmt::format("{}{} {:.2f}x", list.empty() ? "" : ", ", app, r);
      }
      std::cout << focus << " slower than 2x the expert schedule: " << (list.empty() ? "none" : list) << "\n";
    }
    prediction_error_lines(apps, schedulers);
    if (has_base && !side_by_side_.empty()) side_by_side_table(apps, schedulers);

    // summary.csv: one row per app.
    {
      std::ofstream csv(out_ / "summary.csv");
      csv << "app";
      for (const std::string& s : schedulers) csv << "," << s << "_ms";
      for (const std::string& s : searched) csv << "," << s << "_search_s";
      for (const std::string& s : schedulers) csv << "," << s << "_vs_" << kBaseline;
      for (const std::string& s : schedulers) csv << "," << s << "_side_by_side_vs_" << kBaseline;
      csv << "\n";
      auto f = [](double v) { return std::isnan(v) ? std::string() : fmt::format("{:.6g}", v); };
      for (const std::string& app : apps) {
        csv << app;
        for (const std::string& s : schedulers) csv << "," << f(runtime(app, s));
        for (const std::string& s : searched) csv << "," << f(search(app, s));
        for (const std::string& s : schedulers) csv << "," << f(runtime(app, s) / runtime(app, kBaseline));
        for (const std::string& s : schedulers) csv << "," << f(side_by_side_ratio(app, s));
        csv << "\n";
      }
    }
    if (!has_base) return 0;

    // The plot: runtime relative to Adams2019 per app, one bar per contender; the side-by-side
    // ratio where the app's contenders were timed together (the cells' own ratio drifts with
    // the machine between cells), the ratio of the cells' runtimes otherwise.
    const fs::path dat = out_ / "relative_to_adams2019.dat";
    int rows = 0;
    {
      std::ofstream out(dat);
      out << "app";
      for (const std::string& s : schedulers) out << " " << s;
      out << "\n";
      for (const std::string& app : apps) {
        const double base = runtime(app, kBaseline);
        if (std::isnan(base)) continue;
        out << app;
        for (const std::string& s : schedulers) {
          double v = side_by_side_ratio(app, s);
          if (std::isnan(v)) v = runtime(app, s) / base;
          out << " " << (std::isnan(v) ? std::string("?") : fmt::format("{:.6g}", v));
        }
        out << "\n";
        ++rows;
      }
    }
    if (o_.no_plot || rows == 0) return 0;
    const fs::path script = fs::path(CANDOR_BENCH_DIR) / "head_to_head_plot.gp";
    if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
      std::cerr << "[h2h] gnuplot not found (apt-get install gnuplot-nox): no plot, the data is in " << dat.string()
                << "\n";
      return 0;
    }
    const fs::path png = out_ / "head_to_head.png";
    const std::string cmd = fmt::format("gnuplot -e \"datafile='{}'; outfile='{}'; ncols={}\" '{}'", dat.string(),
                                        png.string(), schedulers.size() + 1, script.string());
    if (std::system(cmd.c_str()) != 0) {
      std::cerr << "[h2h] gnuplot failed: " << cmd << "\n";
      return 0;
    }
    std::cerr << "[h2h] plot: " << png.string() << "\n";
    return 0;
  }

 private:
  Options o_;
  fs::path out_;
  Journal journal_;
  std::map<std::string, std::vector<json>> side_by_side_;  // by app, one record per process
  std::string candor_;
};

int driver_main(Options o) {
  if (o.quick) {
    o.runs = 3;
    o.budget = "time=2s";
    if (o.adams_beam_size == 0) o.adams_beam_size = 1;
    o.timeout = std::min(o.timeout, 120.0);
    o.measure_timeout = std::min(o.measure_timeout, 120.0);
    o.side_by_side_seconds = std::min(o.side_by_side_seconds, 1.0);
    o.side_by_side_processes = 1;
  }
  std::vector<std::string> apps;
  if (o.apps.empty()) {
    for (const auto& a : o.corpus ? candor::corpus::all_apps() : candor::apps::all_apps()) apps.push_back(a.name);
  } else {
    apps = split_list(o.apps);
    for (const std::string& a : apps) {
      if (!find_any_app(a)) {
        std::cerr << "head_to_head: error: unknown app '" << a << "' (see `candor apps` and `candor apps --corpus`)\n";
        return 1;
      }
    }
  }
  std::vector<std::string> all = {"naive", "expert", "Mullapudi2016", "Adams2019", "Li2018", "candor"};
  if (o.autotune_seconds > 0) all.push_back("candor_tuned");
  std::vector<std::string> schedulers = all;
  if (!o.schedulers.empty()) {
    schedulers = split_list(o.schedulers);
    for (const std::string& s : schedulers) {
      if (s != "candor_tuned" && std::find(all.begin(), all.end(), s) == all.end()) {
        std::cerr << "head_to_head: error: unknown scheduler '" << s << "' (naive, expert, Mullapudi2016, Adams2019, Li2018, "
                  << "candor, candor_tuned)\n";
        return 1;
      }
    }
  }
  const fs::path out = o.out_dir;
  std::error_code ec;
  if (o.fresh) {
    for (const char* f : {"cells.jsonl", "cells.csv", "summary.csv", "side_by_side.jsonl", "relative_to_adams2019.dat",
                          "head_to_head.png"})
      fs::remove(out / f, ec);
  }
  fs::create_directories(out, ec);
  if (ec) {
    std::cerr << "head_to_head: error: cannot create " << o.out_dir << ": " << ec.message() << "\n";
    return 1;
  }
  Driver driver(o, out);
  struct utsname u {};
  uname(&u);
  std::cerr << fmt::format("[h2h] {} apps x {} contenders on {} ({} cores); results in {}\n", apps.size(),
                           schedulers.size(), u.nodename, core_count(), fs::absolute(out).string());
  driver.run(apps, schedulers);
  return driver.report(apps, schedulers);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Head-to-head: naive, expert, Halide 14's Mullapudi2016, Adams2019 and Li2018, and candor on every example "
               "app, measured side by side (child processes, verified, median of timed runs)"};
  Options o;
  ChildOptions c;
  std::string one;
  cli.add_option("--apps", o.apps, "comma-separated apps or corpus generators (default: every example app; see `candor apps`)");
  cli.add_flag("--corpus", o.corpus, "every generator of the held-out corpus (bench/corpus) instead of the example apps");
  cli.add_option("--out", o.out_dir, "output folder (cells.jsonl/csv, summary.csv, plot)")->capture_default_str();
  cli.add_option("--budget", o.budget, "candor search budget")->capture_default_str();
  cli.add_option("--autotune-seconds", o.autotune_seconds,
                 "add the autotuned candor column, allowing it this many seconds per app (0: off)")
      ->capture_default_str();
  cli.add_option("--autotune-count", o.autotune_count,
                 "at most this many schedules the autotuned candor benchmarks (it stops when its seconds are spent)")
      ->capture_default_str();
  cli.add_option("--runs", o.runs, "timed runs per measurement (median)")->capture_default_str()->check(CLI::PositiveNumber);
  cli.add_option("--warmup", o.warmup, "untimed runs first")->capture_default_str();
  cli.add_option("--timeout", o.timeout, "seconds per stock-autoscheduler cell")->capture_default_str();
  cli.add_option("--measure-timeout", o.measure_timeout, "seconds per other measurement")->capture_default_str();
  cli.add_option("--adams-beam-size", o.adams_beam_size, "HL_BEAM_SIZE for Adams2019 (0: its default)")
      ->capture_default_str();
  cli.add_option("--threads", o.threads,
                 "worker threads that time each pipeline (0: every core); searches still plan for every core, "
                 "so use a fresh --out")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cli.add_option("--schedulers", o.schedulers, "comma-separated subset of the contenders");
  cli.add_option("--candor", o.candor, "the candor executable (default: next to this one)");
  cli.add_flag("--fresh", o.fresh, "forget the results of earlier runs in --out");
  cli.add_flag("--retry-failed", o.retry_failed, "rerun the cells that failed before");
  cli.add_flag("--quick", o.quick, "smoke test: 3 runs, 2 s candor budget, Adams2019 beam size 1, 1 s side by side");
  cli.add_flag("--no-plot", o.no_plot, "do not run gnuplot");
  cli.add_option("--side-by-side-seconds", o.side_by_side_seconds,
                 "after an app's cells, time every contender that verified in one process, in interleaved rounds "
                 "for at least this long, and report their ratios to Adams2019 (0: off)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cli.add_option("--side-by-side-processes", o.side_by_side_processes,
                 "fresh processes that time an app's contenders side by side (the median ratio is reported)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  // Child mode (internal).
  cli.add_option("--one", one, "(internal) measure one app in this process")->group("");
  cli.add_option("--scheduler", c.scheduler, "(internal)")->group("");
  cli.add_option("--schedule-file", c.schedule_file, "(internal)")->group("");
  std::string side_by_side, schedule_dir;
  cli.add_option("--side-by-side", side_by_side, "(internal) with --one: these contenders, interleaved")->group("");
  cli.add_option("--schedule-dir", schedule_dir, "(internal) candor's schedules for --side-by-side")->group("");
  CLI11_PARSE(cli, argc, argv);
  if (!one.empty()) {
    c.app = one;
    c.runs = o.runs;
    c.warmup = o.warmup;
    c.adams_beam_size = o.adams_beam_size;
    c.threads = o.threads;
    return child_main(c, side_by_side, schedule_dir, o.side_by_side_seconds);
  }
  try {
    return driver_main(o);
  } catch (const std::exception& e) {
    std::cerr << "head_to_head: error: " << e.what() << "\n";
    return 1;
  }
}
