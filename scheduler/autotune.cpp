#include "autotune.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <nlohmann/json.hpp>

#include "child_process.h"
#include "runtime/statistics.h"

namespace candor::scheduler {
namespace {

std::optional<Measurement> from_journal(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  std::optional<Measurement> found;
  while (std::getline(in, line)) {
    nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    // A line cut short by a crash of the writer is not valid JSON: skip it.
    if (record.is_discarded() || record.value("key", "") != key) continue;
    Measurement m;
    m.ok = record.value("ok", false);
    m.failure = record.value("failure", "");
    m.runtime_ms = record.value("runtime_ms", 0.0);
    m.wall_seconds = record.value("wall_seconds", 0.0);
    m.from_journal = true;
    found = m;
  }
  return found;
}

void append_to_journal(const std::string& path, const std::string& key, const Measurement& m) {
  nlohmann::json record = {{"key", key},
                           {"ok", m.ok},
                           {"failure", m.failure},
                           {"runtime_ms", m.runtime_ms},
                           {"wall_seconds", m.wall_seconds}};
  // One write of one line: a crash leaves either the whole record or a torn last line.
  std::string line = record.dump() + "\n";
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) return;
  std::fwrite(line.data(), 1, line.size(), f);
  std::fflush(f);
  fsync(fileno(f));
  std::fclose(f);
}

}  // namespace

std::string measurement_key(const std::string& app, const halide_bridge::Schedule& schedule) {
  nlohmann::json j = schedule;
  return app + ":" + std::to_string(std::hash<std::string>{}(j.dump()));
}

Measurement measure(const std::string& app, const halide_bridge::Schedule& schedule,
                    const AutotuneOptions& options, int repeat) {
  const std::string key = measurement_key(app, schedule) + (repeat > 0 ? ":repeat" + std::to_string(repeat) : "");
  if (!options.journal.empty()) {
    if (std::optional<Measurement> known = from_journal(options.journal, key)) return *known;
  }
  char path[] = "/tmp/candor_schedule_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return {false, "cannot write a temporary schedule file"};
  nlohmann::json j = schedule;
  std::string text = j.dump();
  bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  Measurement m;
  if (!written) {
    m.failure = "cannot write a temporary schedule file";
  } else {
    ChildResult child = run_child({options.worker, "measure", app, "--schedule", path, "--json",
                                   "--threads", std::to_string(options.threads), "--runs",
                                   std::to_string(options.timed_runs)},
                                  options.timeout_seconds);
    m.wall_seconds = child.seconds;
    nlohmann::json out = nlohmann::json::parse(child.output, nullptr, false);
    if (child.timed_out) {
      m.failure = "timeout";
    } else if (child.crashed) {
      m.failure = "crash";
    } else if (out.is_discarded()) {
      m.failure = "the measuring process printed no result (exit status " + std::to_string(child.exit_status) + ")";
    } else {
      m.ok = out.value("verified", false);
      m.runtime_ms = out.value("runtime_ms", 0.0);
      if (!m.ok) m.failure = out.value("failed_step", "") + ": " + out.value("error", "");
    }
  }
  std::remove(path);
  if (!options.journal.empty()) append_to_journal(options.journal, key, m);
  return m;
}

AutotuneResult autotune(const std::string& app, const std::vector<halide_bridge::Schedule>& schedules,
                        const AutotuneOptions& options, double seconds, int finalists, int confirmations,
                        const AutotuneProgress& progress) {
  AutotuneResult out;
  std::vector<std::vector<double>> runtimes(schedules.size());
  double longest = 0;
  auto run = [&](size_t i, int repeat) {
    const Measurement m = measure(app, schedules[i], options, repeat);
    out.seconds += m.wall_seconds;
    longest = std::max(longest, m.wall_seconds);
    if (progress) progress(i, repeat, m);
    if (m.ok) runtimes[i].push_back(m.runtime_ms);
    else if (repeat == 0) out.failures.emplace_back(i, m.failure);
  };
  auto fits = [&](double more) { return seconds <= 0 || out.seconds + more <= seconds; };
  const int reserve = std::max(0, finalists) * std::max(0, confirmations);
  for (size_t i = 0; i < schedules.size(); ++i) {
    if (i > 0 && !fits(longest * (1 + reserve))) break;
    run(i, 0);
    out.measured = i + 1;
  }
  std::vector<size_t> ranked;
  for (size_t i = 0; i < out.measured; ++i)
    if (!runtimes[i].empty()) ranked.push_back(i);
  std::sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) { return runtimes[a][0] < runtimes[b][0]; });
  if (ranked.size() > 1) {
    ranked.resize(std::min<size_t>(ranked.size(), std::max(1, finalists)));
    for (int r = 1; r <= confirmations; ++r)
      for (size_t i : ranked)
        if (fits(longest)) run(i, r);
  }
  for (size_t i : ranked) {
    const double m = median(runtimes[i]);
    if (out.chosen < 0 || m < out.runtime_ms) {
      out.chosen = static_cast<int>(i);
      out.runtime_ms = m;
    }
  }
  return out;
}

}  // namespace candor::scheduler
