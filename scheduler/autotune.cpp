#include "autotune.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <nlohmann/json.hpp>

#include "child_process.h"

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
                    const AutotuneOptions& options) {
  const std::string key = measurement_key(app, schedule);
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

}  // namespace candor::scheduler
