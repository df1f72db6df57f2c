#include "measure_child.h"

#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "child_process.h"

namespace candor::collect {
namespace {

// Writes the schedules, one JSON a line, to a new temporary file; "" on failure.
std::string write_schedules(const std::vector<halide_bridge::Schedule>& schedules, size_t first) {
  char path[] = "/tmp/candor_samples_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return "";
  std::string text;
  for (size_t i = first; i < schedules.size(); ++i) text += nlohmann::json(schedules[i]).dump() + "\n";
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  if (!written) {
    std::remove(path);
    return "";
  }
  return path;
}

ChildMeasurement from_result(const nlohmann::json& out) {
  ChildMeasurement m;
  m.ok = out.value("verified", false);
  m.runtime_ms = out.value("runtime_ms", 0.0);
  m.compile_ms = out.value("compile_ms", 0.0);
  if (!m.ok) {
    const std::string step = out.value("failed_step", "");
    m.failure = (step == "verify" ? "mismatch" : step) + ": " + out.value("error", "");
  }
  return m;
}

}  // namespace

std::vector<ChildMeasurement> measure_in_children(const std::string& pipeline_spec,
                                                  const std::vector<halide_bridge::Schedule>& schedules,
                                                  const ChildMeasureOptions& options) {
  std::vector<ChildMeasurement> results;
  int timeouts_in_a_row = 0;
  while (results.size() < schedules.size()) {
    if (options.timeouts_to_give_up > 0 && timeouts_in_a_row >= options.timeouts_to_give_up) {
      ChildMeasurement skipped;
      skipped.failure = "timeout (not tried: the " + std::to_string(timeouts_in_a_row) +
                        " schedules before it timed out)";
      results.resize(schedules.size(), skipped);
      break;
    }
    const size_t first = results.size(), count = schedules.size() - first;
    const std::string path = write_schedules(schedules, first);
    if (path.empty()) {
      results.resize(schedules.size(), ChildMeasurement{false, "cannot write a temporary schedule file"});
      break;
    }
    std::vector<std::string> argv = {options.worker, "measure",  pipeline_spec, "--schedules", path,
                                     "--threads",    std::to_string(options.threads), "--runs",
                                     std::to_string(options.runs), "--min-seconds", std::to_string(options.min_seconds)};
    if (!options.reference_cache.empty()) {
      argv.push_back("--reference-cache");
      argv.push_back(options.reference_cache);
    }
    if (!options.timing_lock.empty()) {
      argv.push_back("--timing-lock");
      argv.push_back(options.timing_lock);
    }
    // Each result line restarts the clock: a schedule that hangs costs its own limit only.
    scheduler::ChildResult child =
        scheduler::run_child(argv, options.timeout_seconds * count, options.timeout_seconds);
    std::remove(path.c_str());
    // Complete result lines, in order; a line cut by the kill is not one.
    std::istringstream lines(child.output);
    size_t got = 0;
    for (std::string line; got < count && std::getline(lines, line);) {
      const nlohmann::json out = nlohmann::json::parse(line, nullptr, false);
      if (out.is_discarded() || !out.is_object()) continue;
      results.push_back(from_result(out));
      ++got;
    }
    // Wall time is known per child only: share it out over the schedules it measured.
    const size_t charged = got < count ? got + 1 : got;
    for (size_t i = first; i < results.size(); ++i) results[i].wall_seconds = child.seconds / charged;
    if (got == count) break;
    // A run of timeouts grows by this child's only when no schedule printed a result in it.
    timeouts_in_a_row = child.timed_out ? (got > 0 ? 0 : timeouts_in_a_row) + 1 : 0;
    ChildMeasurement failed;
    failed.wall_seconds = child.seconds / charged;
    if (child.timed_out) {
      failed.failure = "timeout";
    } else if (child.crashed) {
      failed.failure = "crash";
    } else {
      failed.failure = "crash: the measuring process stopped without a result (exit status " +
                       std::to_string(child.exit_status) + ")";
    }
    results.push_back(failed);
  }
  return results;
}

}  // namespace candor::collect
