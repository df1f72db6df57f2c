#include "autotune.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <set>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "child_process.h"
#include "runtime/statistics.h"

namespace candor::scheduler {
namespace {

Measurement measurement_from_json(const nlohmann::json& j) {
  Measurement m;
  m.ok = j.value("ok", false);
  m.failure = j.value("failure", "");
  m.runtime_ms = j.value("runtime_ms", 0.0);
  m.ratio_to_first = j.value("ratio_to_first", 0.0);
  m.wall_seconds = j.value("wall_seconds", 0.0);
  return m;
}

nlohmann::json measurement_to_json(const Measurement& m) {
  return {{"ok", m.ok}, {"failure", m.failure}, {"runtime_ms", m.runtime_ms}, {"ratio_to_first", m.ratio_to_first}};
}

// The last record of `key`: one measurement per schedule measured together.
std::optional<std::vector<Measurement>> from_journal(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  std::optional<std::vector<Measurement>> found;
  while (std::getline(in, line)) {
    nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    // A line cut short by a crash of the writer is not valid JSON: skip it.
    if (record.is_discarded() || record.value("key", "") != key) continue;
    std::vector<Measurement> ms;
    if (record.contains("results")) {
      for (const nlohmann::json& r : record["results"]) ms.push_back(measurement_from_json(r));
    } else {
      ms.push_back(measurement_from_json(record));  // a journal of one schedule per record
    }
    for (Measurement& m : ms) {
      m.wall_seconds = record.value("wall_seconds", 0.0) / ms.size();
      m.from_journal = true;
    }
    found = ms;
  }
  return found;
}

void append_to_journal(const std::string& path, const std::string& key, const std::vector<Measurement>& ms,
                       double wall_seconds) {
  nlohmann::json results = nlohmann::json::array();
  for (const Measurement& m : ms) results.push_back(measurement_to_json(m));
  nlohmann::json record = {{"key", key}, {"results", results}, {"wall_seconds", wall_seconds}};
  // One write of one line: a crash leaves either the whole record or a torn last line.
  std::string line = record.dump() + "\n";
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) throw std::runtime_error("cannot write journal " + path + ": " + std::strerror(errno));
  const bool written = std::fwrite(line.data(), 1, line.size(), f) == line.size() && std::fflush(f) == 0 &&
                       fsync(fileno(f)) == 0;
  const int error = errno;
  if (std::fclose(f) != 0 || !written)
    throw std::runtime_error("cannot write journal " + path + ": " + std::strerror(written ? errno : error));
}

std::vector<Measurement> failed(size_t n, const std::string& failure) {
  std::vector<Measurement> ms(n);
  for (Measurement& m : ms) m.failure = failure;
  return ms;
}

}  // namespace

std::string journal_problem(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode))
    return "cannot write journal " + path + ": not a regular file";
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) return "cannot write journal " + path + ": " + std::strerror(errno);
  std::fclose(f);
  return "";
}

std::string measurement_key(const std::string& app, const halide_bridge::Schedule& schedule) {
  nlohmann::json j = schedule;
  return app + ":" + std::to_string(std::hash<std::string>{}(j.dump()));
}

namespace {
// The journal key of one process's measurement of `schedules` side by side.
std::string process_key(const std::string& app, const std::vector<halide_bridge::Schedule>& schedules, int repeat) {
  std::string key = measurement_key(app, schedules.at(0));
  for (size_t i = 1; i < schedules.size(); ++i) key += ":with:" + measurement_key(app, schedules[i]);
  if (repeat > 0) key += ":repeat" + std::to_string(repeat);
  return key;
}
}  // namespace

std::vector<Measurement> measure_together(const std::string& app, const std::vector<halide_bridge::Schedule>& schedules,
                                          const AutotuneOptions& options, int repeat) {
  const std::string key = process_key(app, schedules, repeat);
  if (!options.journal.empty()) {
    std::optional<std::vector<Measurement>> known = from_journal(options.journal, key);
    if (known && known->size() == schedules.size()) return *known;
  }
  char path[] = "/tmp/candor_schedules_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return failed(schedules.size(), "cannot write a temporary schedule file");
  std::string text;
  for (const halide_bridge::Schedule& s : schedules) text += nlohmann::json(s).dump() + "\n";
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  std::vector<Measurement> ms;
  double wall_seconds = 0;
  if (!written) {
    ms = failed(schedules.size(), "cannot write a temporary schedule file");
  } else {
    std::vector<std::string> argv = {options.worker, "measure", app,         "--schedules",
                                     path,           "--json",  "--threads", std::to_string(options.threads),
                                     "--runs",       std::to_string(options.timed_runs), "--progress-lines"};
    if (!options.reference_cache.empty()) argv.insert(argv.end(), {"--reference-cache", options.reference_cache});
    if (!options.timing_lock.empty()) argv.insert(argv.end(), {"--timing-lock", options.timing_lock});
    if (schedules.size() > 1) argv.push_back("--interleave");
    ChildResult child = run_child(argv, options.timeout_seconds * schedules.size(), options.step_timeout_seconds);
    wall_seconds = child.seconds;
    std::istringstream lines(child.output);
    std::vector<nlohmann::json> outs;
    std::set<size_t> compiled;
    bool reference_ready = false;
    for (std::string line; std::getline(lines, line);) {
      nlohmann::json out = nlohmann::json::parse(line, nullptr, false);
      if (out.is_discarded()) continue;
      if (!out.contains("step")) {
        outs.push_back(out);
      } else if (out["step"] == "reference") {
        reference_ready = true;
      } else if (out["step"] == "compiled") {
        compiled.insert(out.value("index", size_t{0}));
      }
    }
    // The schedule whose compile was cut short: the first not compiled, once the reference was.
    size_t compiling = 0;
    while (compiled.count(compiling)) ++compiling;
    const bool compile_overran = child.timed_out && reference_ready && compiling < schedules.size();
    if (compile_overran && (compiling > 0 || schedules.size() == 1)) {
      const std::string overran = fmt::format("compile over {:.0f} s", options.step_timeout_seconds);
      std::vector<halide_bridge::Schedule> rest;
      for (size_t i = 0; i < schedules.size(); ++i)
        if (i != compiling) rest.push_back(schedules[i]);
      std::vector<Measurement> others = rest.empty() ? std::vector<Measurement>{} : measure_together(app, rest, options, repeat);
      for (size_t i = 0, k = 0; i < schedules.size(); ++i) {
        if (i == compiling) {
          ms.push_back(failed(1, overran).front());
        } else {
          ms.push_back(others.at(k++));
          wall_seconds += ms.back().wall_seconds;
        }
      }
    } else if (child.timed_out) {
      ms = failed(schedules.size(), "timeout");
    } else if (child.crashed) {
      ms = failed(schedules.size(), "crash");
    } else if (outs.size() != schedules.size()) {
      ms = failed(schedules.size(), "the measuring process printed " + std::to_string(outs.size()) + " results for " +
                                        std::to_string(schedules.size()) + " schedules (exit status " +
                                        std::to_string(child.exit_status) + ")");
    } else {
      for (const nlohmann::json& out : outs) {
        Measurement m;
        m.ok = out.value("verified", false);
        m.runtime_ms = out.value("runtime_ms", 0.0);
        m.ratio_to_first = out.value("ratio_to_first", m.ok ? 1.0 : 0.0);
        if (!m.ok) m.failure = out.value("failed_step", "") + ": " + out.value("error", "");
        ms.push_back(m);
      }
    }
  }
  for (Measurement& m : ms) m.wall_seconds = wall_seconds / schedules.size();
  std::remove(path);
  if (!options.journal.empty()) append_to_journal(options.journal, key, ms, wall_seconds);
  return ms;
}

AutotuneResult first_verified(const std::string& app, const std::vector<halide_bridge::Schedule>& schedules,
                              const AutotuneOptions& options, const AutotuneProgress& progress) {
  AutotuneResult out;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < schedules.size() && out.chosen < 0; ++i) {
    const Measurement m = measure_together(app, {schedules[i]}, options).front();
    ++out.measured;
    if (progress) progress(i, 0, m);
    if (m.ok) {
      out.chosen = int(i);
      out.runtime_ms = m.runtime_ms;
    } else {
      out.failures.emplace_back(i, m.failure);
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

AutotuneResult autotune(const std::string& app, const std::vector<halide_bridge::Schedule>& given,
                        const AutotuneOptions& options, double seconds, int finalists, int confirmations,
                        const AutotuneProgress& progress, const LocalSearch& local,
                        const AutotuneProcessLog& processes) {
  AutotuneResult out;
  std::vector<halide_bridge::Schedule> schedules = given;
  // Per schedule: its first measurement's runtime, and its estimate on that scale (for a
  // neighbour, its centre's estimate times their ratio); 0 when it failed or was not measured.
  std::vector<double> measured_ms(schedules.size(), 0), estimate_ms(schedules.size(), 0);
  std::set<std::string> measured_keys;
  // Seconds per schedule measured (a process measuring two takes twice as long): the median,
  // since one slow process (a cold start) would otherwise stop the local search early.
  std::vector<double> walls;
  auto record = [&](const Measurement& m) {
    if (!m.from_journal) walls.push_back(m.wall_seconds);
  };
  auto typical = [&] { return walls.empty() ? 0.0 : median(walls); };
  // Wall time, proposing neighbours included.
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  // The first measurement of schedules `group`, side by side in one process: with schedule
  // `beside` (measured again as their reference), or else with the group's first as the
  // reference. A process that crashes or times out fails every schedule in it, so a group
  // that failed that way is measured again one schedule a process, to tell which one did.
  std::function<void(const std::vector<size_t>&, std::optional<size_t>)> first_measurements =
      [&](const std::vector<size_t>& group, std::optional<size_t> beside) {
        std::vector<halide_bridge::Schedule> together;
        std::vector<size_t> indices;
        if (beside) indices.push_back(*beside);
        indices.insert(indices.end(), group.begin(), group.end());
        for (size_t i : indices) together.push_back(schedules[i]);
        for (size_t i : group) measured_keys.insert(measurement_key(app, schedules[i]));
        const std::vector<Measurement> ms = measure_together(app, together, options);
        if (processes) processes(process_key(app, together, 0), indices, ms);
        const bool process_failed = std::all_of(ms.begin(), ms.end(), [](const Measurement& m) {
          return m.failure == "crash" || m.failure == "timeout";
        });
        if (together.size() > 1 && process_failed) {
          for (const Measurement& m : ms) record(m);
          for (size_t i : group) first_measurements({i}, std::nullopt);
          return;
        }
        const size_t reference = beside ? *beside : group[0];
        for (size_t k = 0; k < group.size(); ++k) {
          const size_t i = group[k];
          const Measurement& m = ms.at(beside ? k + 1 : k);
          record(m);
          ++out.measured;
          if (progress) progress(i, 0, m);
          if (!m.ok) {
            out.failures.emplace_back(i, m.failure);
            continue;
          }
          measured_ms[i] = m.runtime_ms;
          const bool on_reference_scale = i != reference && estimate_ms[reference] > 0 && m.ratio_to_first > 0;
          estimate_ms[i] = on_reference_scale ? estimate_ms[reference] * m.ratio_to_first : m.runtime_ms;
        }
      };
  auto fits = [&](double more) { return seconds <= 0 || elapsed() + more <= seconds; };
  // Schedule measurements kept for the finalists' confirmations.
  const int reserve = std::max(0, confirmations) * std::max(1, finalists);
  const bool searching_locally = local.propose && seconds > 0;
  // The given schedules, `batch` at a time side by side with the first (the model's pick),
  // which the first process measures with them: their estimates share its scale.
  const size_t batch = std::max(1, local.batch);
  for (size_t next = 0; next < given.size();) {
    std::vector<size_t> group;
    while (next < given.size() && group.size() < (next == 0 ? batch + 1 : batch)) group.push_back(next++);
    if (group[0] > 0 && !fits(typical() * (group.size() + 1 + reserve))) break;
    if (group[0] > 0 && searching_locally && elapsed() >= seconds * (1 - local.share)) break;
    first_measurements(group, group[0] > 0 && estimate_ms[0] > 0 ? std::optional<size_t>(0) : std::nullopt);
  }
  auto measured_ok = [&]() {
    std::vector<size_t> ok;
    for (size_t i = 0; i < schedules.size(); ++i)
      if (estimate_ms[i] > 0) ok.push_back(i);
    std::sort(ok.begin(), ok.end(), [&](size_t a, size_t b) { return estimate_ms[a] < estimate_ms[b]; });
    return ok;
  };
  if (searching_locally && !measured_ok().empty()) {
    size_t centre = measured_ok().front();
    std::deque<size_t> queue;
    auto propose = [&]() {
      queue.clear();
      for (halide_bridge::Schedule& s : local.propose(centre)) {
        queue.push_back(schedules.size());
        schedules.push_back(std::move(s));
        measured_ms.push_back(0);
        estimate_ms.push_back(0);
      }
    };
    propose();
    while (!queue.empty() && fits(typical() * (1 + batch + reserve))) {
      std::vector<size_t> group;
      while (!queue.empty() && group.size() < batch) {
        const size_t i = queue.front();
        queue.pop_front();
        if (!measured_keys.count(measurement_key(app, schedules[i]))) group.push_back(i);
      }
      if (group.empty()) break;
      first_measurements(group, centre);
      out.proposed_measured += group.size();
      size_t best = group[0];
      for (size_t i : group)
        if (estimate_ms[i] > 0 && (estimate_ms[best] <= 0 || estimate_ms[i] < estimate_ms[best])) best = i;
      if (estimate_ms[best] > 0 && estimate_ms[best] < estimate_ms[centre] * (1 - local.improvement)) {
        centre = best;
        ++out.centre_moves;
        propose();
      }
    }
  }
  std::vector<size_t> ranked = measured_ok();
  // The model's pick (schedule 0) is the first finalist and the confirmations' reference:
  // another finalist wins only by `local.improvement`, so that measurements that cannot tell
  // the finalists apart (hist_eq's, all within 1%) leave the model's choice in place.
  const bool model_is_reference = confirmations > 0 && estimate_ms[0] > 0;
  if (model_is_reference) {
    ranked.erase(std::find(ranked.begin(), ranked.end(), size_t{0}));
    ranked.insert(ranked.begin(), 0);
  }
  if (ranked.size() > static_cast<size_t>(std::max(1, finalists))) ranked.resize(std::max(1, finalists));
  // Without confirmations: the best estimate, reported at its own measured runtime.
  std::vector<std::vector<double>> ratios(ranked.size()), runtimes(ranked.size());
  for (int r = 1; r <= confirmations && ranked.size() > 1; ++r) {
    std::vector<halide_bridge::Schedule> together;
    for (size_t i : ranked) together.push_back(schedules[i]);
    if (!fits(typical() * ranked.size())) break;
    const std::vector<Measurement> ms = measure_together(app, together, options, r);
    if (processes) processes(process_key(app, together, r), ranked, ms);
    for (size_t k = 0; k < ms.size(); ++k) {
      record(ms[k]);
      if (progress) progress(ranked[k], r, ms[k]);
      if (ms[k].ok && ms[0].ok) {
        ratios[k].push_back(ms[k].ratio_to_first);
        runtimes[k].push_back(ms[k].runtime_ms);
      }
    }
  }
  double best_ratio = 0;
  for (size_t k = 0; k < ranked.size(); ++k) {
    if (ratios[0].empty()) {  // not confirmed: the order of the estimates decides
      const size_t best = measured_ok().front();
      out.chosen = static_cast<int>(best);
      out.runtime_ms = measured_ms[best];
      break;
    }
    if (ratios[k].empty()) continue;
    const double ratio = median(ratios[k]) / (model_is_reference && k > 0 ? 1 - local.improvement : 1);
    if (out.chosen < 0 || ratio < best_ratio) {
      out.chosen = static_cast<int>(ranked[k]);
      out.runtime_ms = median(runtimes[k]);
      best_ratio = ratio;
    }
  }
  out.seconds = elapsed();
  return out;
}

}  // namespace candor::scheduler
