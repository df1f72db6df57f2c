// bound_report: the lower bound against what was measured, and what branch-and-bound prunes
// with it, per app (issue 4's "what must be shown").
//
//  * Admissibility: the bound at the root of the space (no schedule of it can beat it) over
//    every runtime a head-to-head run measured on this machine (every contender's schedule),
//    and the bound of candor's chosen candidate over that schedule's runtime. A ratio above
//    1 (plus 5% noise) would be a bound that is not a bound.
//  * Pruning: each branch-and-bound engine (dfbb, bfbb) searches the app for a time budget
//    with the analytic model; children generated vs children the bound discarded.
//
//   bound_report --h2h bench_results [--apps a,b] [--engines dfbb,bfbb] [--seconds 10]
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "apps.h"
#include "comma_list.h"
#include "halide_bridge/compile.h"
#include "models/halide/machine.h"
#include "scheduler.h"

namespace fs = std::filesystem;
namespace hb = candor::halide_bridge;
namespace mh = candor::models::halide;
using json = nlohmann::json;
using candor::bench::split_list;

namespace {

double number(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : NAN;
}

// The verified cells of a head-to-head run, per app: (contender, runtime ms, its bound ms or NaN).
struct Cell {
  std::string scheduler;
  double runtime_ms = NAN, bound_ms = NAN;
};

std::map<std::string, std::vector<Cell>> read_cells(const fs::path& file) {
  std::map<std::string, std::vector<Cell>> out;
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string() + " (run build/bin/head_to_head --out DIR first)");
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const json j = json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("app")) {
      std::cerr << fmt::format("{}:{}: warning: not a head-to-head cell, skipped\n", file.string(), line_no);
      continue;
    }
    if (!j.value("ok", false)) continue;
    out[j["app"].get<std::string>()].push_back(
        {j.value("scheduler", std::string("?")), number(j, "runtime_ms"), number(j, "lower_bound_ms")});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"The lower bound against measured runtimes (a head-to-head run), and branch-and-bound pruning per app"};
  std::string h2h = "bench_results", apps_arg, engines_arg = "dfbb,bfbb", machine_path;
  double seconds = 10;
  cli.add_option("--h2h", h2h, "a head_to_head --out folder (its cells.jsonl)")->capture_default_str();
  cli.add_option("--apps", apps_arg, "comma-separated apps (default: those in the head-to-head run)");
  cli.add_option("--engines", engines_arg, "branch-and-bound engines to run")->capture_default_str();
  cli.add_option("--seconds", seconds, "search budget per app and engine")->capture_default_str()->check(CLI::PositiveNumber);
  cli.add_option("--machine", machine_path, "machine description (default: build/machine.json)");
  CLI11_PARSE(cli, argc, argv);

  std::map<std::string, std::vector<Cell>> cells;
  try {
    cells = read_cells(fs::path(h2h) / "cells.jsonl");
  } catch (const std::exception& e) {
    std::cerr << "bound_report: error: " << e.what() << "\n";
    return 1;
  }
  std::vector<std::string> apps = split_list(apps_arg);
  if (apps.empty())
    for (const auto& [app, c] : cells) apps.push_back(app);
  const mh::MachineDescription machine = mh::load_or_calibrate(machine_path.empty() ? mh::default_machine_path() : machine_path);
  const Halide::Target target = hb::host_target();
  const std::vector<std::string> engines = split_list(engines_arg);

  std::string header = fmt::format("{:<26} {:>10} {:>10} {:>14} {:>9} {:>11}", "app", "root LB ms", "best ms",
                                   "(contender)", "LB/best", "cand LB/ms");
  for (const std::string& e : engines) header += fmt::format(" {:>20}", e + " pruned/children");
  std::cout << header << "\n" << std::string(header.size(), '-') << "\n";
  double worst = 0;
  std::string worst_where;
  for (const std::string& name : apps) {
    const hb::App* app = candor::apps::find_app(name);
    if (!app) {
      std::cerr << "bound_report: error: unknown app '" << name << "' (see `candor apps`)\n";
      return 1;
    }
    const hb::KernelDescription kd = hb::describe_app(app->build(), target);
    std::string row;
    double root_lb_ms = NAN;
    std::vector<std::string> pruning;
    for (const std::string& engine : engines) {
      candor::scheduler::ScheduleRequest request;
      request.search = engine;
      request.budget.seconds = seconds;
      try {
        const auto outcome = candor::scheduler::schedule_kernel(kd, machine, request);
        root_lb_ms = outcome.root_lower_bound_seconds * 1e3;
        const auto& s = outcome.stats;
        const double children = double(std::max<int64_t>(1, s.created));
        pruning.push_back(fmt::format("{}/{} ({:.1f}%)", s.pruned_by_bound, s.created, 100.0 * s.pruned_by_bound / children));
      } catch (const std::exception& e) {
        pruning.push_back("failed");
        std::cerr << fmt::format("bound_report: {} {}: {}\n", name, engine, e.what());
      }
    }
    const auto& app_cells = cells[name];
    const Cell* best = nullptr;
    double cand_ratio = NAN;
    for (const Cell& c : app_cells) {
      if (!best || c.runtime_ms < best->runtime_ms) best = &c;
      if (!std::isnan(c.bound_ms) && c.runtime_ms > 0) {
        const double r = c.bound_ms / c.runtime_ms;
        cand_ratio = std::isnan(cand_ratio) ? r : std::max(cand_ratio, r);
        if (r > worst) worst = r, worst_where = name + " " + c.scheduler + " (its candidate's bound)";
      }
    }
    const double ratio = best && !std::isnan(root_lb_ms) ? root_lb_ms / best->runtime_ms : NAN;
    if (!std::isnan(ratio) && ratio > worst) worst = ratio, worst_where = name + " " + best->scheduler + " (root bound)";
    auto f = [](double v, const char* spec) { return std::isnan(v) ? std::string("-") : fmt::format(spec, v); };
    row = fmt::format("{:<26} {:>10} {:>10} {:>14} {:>9} {:>11}", name, f(root_lb_ms, "{:.4g}"),
                      best ? f(best->runtime_ms, "{:.4g}") : "-", best ? "(" + best->scheduler + ")" : "-",
                      f(ratio, "{:.3f}"), f(cand_ratio, "{:.3f}"));
    for (const std::string& p : pruning) row += fmt::format(" {:>20}", p);
    std::cout << row << std::endl;
  }
  std::cout << std::string(header.size(), '-') << "\n"
            << fmt::format("worst bound / measured: {:.3f} ({}); admissible within 5% noise: {}\n", worst, worst_where,
                           worst <= 1.05 ? "yes" : "NO")
            << "root LB: no schedule of the space can beat it; best: the fastest verified schedule of any contender; "
               "cand LB/ms: candor's chosen candidate's bound over its runtime; pruned/children: children the bound "
               "discarded in "
            << seconds << " s of search with the analytic model.\n";
  return worst <= 1.05 ? 0 : 3;
}
