#include "profile.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <regex>
#include <sstream>

#include "compile.h"
#include "error.h"

namespace candor::halide_bridge {
namespace {

// The JIT runtime prints a profiler report after every run of a profiled pipeline through
// the custom print handler; the reports are collected here.
std::mutex report_mutex;
std::string report_text;

void capture_print(Halide::JITUserContext*, const char* text) {
  std::lock_guard<std::mutex> lock(report_mutex);
  report_text += text;
}

// Sums the reports in `text` into `profile`: one per run, a run too short to be sampled
// counting as a run of no time.
void add_reports(const std::string& text, FuncProfile& profile) {
  static const std::regex total(R"(^\s*total time:\s*([0-9.]+)\s*ms\s+samples:\s*([0-9]+)\s+runs:\s*([0-9]+))");
  static const std::regex func(R"(^\s+([^\s:][^:]*):\s+([0-9.]+)\s*ms\s+\()");
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, total)) {
      profile.total_ms += std::stod(m[1]);
      profile.samples += std::stoi(m[2]);
      profile.runs += std::stoi(m[3]);
    } else if (std::regex_search(line, m, func)) {
      std::string name = m[1];
      if (name == "halide_malloc" || name == "halide_free") name = "(allocation)";
      profile.func_ms[name] += std::stod(m[2]);
    }
  }
}

}  // namespace

int profile_runs_for(double runtime_ms) {
  return int(std::clamp(std::ceil(300 / std::max(runtime_ms, 1e-3)), 10.0, 3000.0));
}

FuncProfile profile_instance(const AppInstance& inst, const Halide::Target& target, int runs) {
  Halide::Pipeline p = inst.pipeline();
  p.jit_handlers().custom_print = capture_print;
  const Halide::Target profiled = target.with_feature(Halide::Target::Profile);
  Outputs out = make_outputs(inst);
  FuncProfile profile;
  try {
    p.compile_jit(profiled);
    Halide::Realization r(out);
    p.realize(r, profiled);  // untimed: first-touch of the buffers, the thread pool's start
    {
      std::lock_guard<std::mutex> lock(report_mutex);
      report_text.clear();
    }
    for (int i = 0; i < runs; ++i) p.realize(r, profiled);
  } catch (const Halide::Error& e) {
    throw BridgeError(std::string("Halide failed to compile or run the profiled pipeline: ") + e.what());
  }
  std::string text;
  {
    std::lock_guard<std::mutex> lock(report_mutex);
    text.swap(report_text);
  }
  add_reports(text, profile);
  if (profile.runs > 0) {
    profile.total_ms /= profile.runs;
    for (auto& [name, ms] : profile.func_ms) ms /= profile.runs;
  }
  return profile;
}

}  // namespace candor::halide_bridge
