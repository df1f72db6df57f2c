// candor_collect: sample collection for the learned cost model, on MPI.
//
//   mpirun -np N build/bin/candor_collect --out DIR --pipelines A:B --schedules-per-pipeline K
//
// Every rank takes every N-th pipeline, draws K schedules of it (draw.h), measures them in
// child processes (`candor measure`, with a time limit) and appends the samples to its own
// shard DIR/shard-<rank>.jsonl; at the end rank 0 merges the shards into DIR/samples.jsonl,
// each key once. Rerunning the same command skips every key already in a shard or in the
// merged file, so a killed run resumes without losing or repeating samples. Runs without
// mpirun as one rank. The format is docs/dataset.md.
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps.h"
#include "dataset.h"
#include "draw.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/error.h"
#include "halide_bridge/timing_lock.h"
#include "measure_child.h"
#include "models/halide/machine.h"
#include "pipelines.h"
#include "sample.h"
#include "support/progress.h"
#include "tools/strict_numbers.h"

namespace {

namespace fs = std::filesystem;
using namespace candor;

struct Options {
  std::string out;
  std::string pipelines = "0:100";
  std::string family = "random";
  std::vector<int> sizes;  // empty: the family's default size
  bool apps = false;
  int schedules_per_pipeline = 8;
  double timeout = 60;
  double time_limit = 0;  // seconds; 0: none
  uint64_t seed = 0;
  int threads = 0;
  int runs = 5;
  double min_seconds = 0.1;
  std::string timing_lock = halide_bridge::default_timing_lock_path();
  std::string machine;
  std::string worker;
};

// mpirun binds each rank to one core (Open MPI's default for a few ranks), and the measuring
// children inherit the binding: their benchmarks ran every thread on that one core, 1.3-2x
// slower than alone. A rank only waits on its child, so it hands it the whole machine; the
// timing lock keeps the ranks' timings apart. Best effort: a cpuset still has the last word.
void use_every_cpu() {
  cpu_set_t every;
  CPU_ZERO(&every);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  for (long cpu = 0; cpu < cpus && cpu < CPU_SETSIZE; ++cpu) CPU_SET(cpu, &every);
  sched_setaffinity(0, sizeof every, &every);
}

struct Pipeline {
  std::string spec;             // for `candor measure`
  std::optional<collect::RandomPipelineSpec> random;  // generated pipelines only
};

// "A:B" (seeds A to B-1) or "S1,S2,..." of `family`; seed s at sizes[s % sizes.size()].
std::vector<Pipeline> parse_seeds(const std::string& text, collect::PipelineFamily family, std::vector<int> sizes) {
  if (sizes.empty()) sizes = {collect::default_size(family)};
  auto number = [&](const std::string& s) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("--pipelines: '" + text + "' is not A:B or a list of seeds");
    return std::stoull(s);
  };
  std::vector<uint64_t> seeds;
  if (size_t colon = text.find(':'); colon != std::string::npos) {
    const uint64_t first = number(text.substr(0, colon)), last = number(text.substr(colon + 1));
    if (last <= first) throw std::invalid_argument("--pipelines " + text + ": the range is empty");
    for (uint64_t s = first; s < last; ++s) seeds.push_back(s);
  } else {
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      if (comma == std::string::npos) comma = text.size();
      seeds.push_back(number(text.substr(start, comma - start)));
      start = comma + 1;
    }
  }
  std::vector<Pipeline> out;
  for (uint64_t s : seeds) {
    const collect::RandomPipelineSpec random{s, sizes[s % sizes.size()], family};
    out.push_back({collect::random_pipeline_spec(random), random});
  }
  return out;
}

uint64_t mix(uint64_t a, uint64_t b) {  // splitmix64 of a combined pair: per-pipeline draw seeds
  uint64_t z = a * 0x9e3779b97f4a7c15ull + b + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct Progress {
  int rank = 0;
  long expected = 0;  // schedules this rank is responsible for
  long done = 0;      // recorded before this run or now
  long measured = 0;  // in this run
  long failed = 0;    // of those
  long skipped_pipelines = 0;
  double time_limit = 0;  // seconds; 0: none
  support::ProgressLine line;

  Progress(int rank, double time_limit)
      : rank(rank), time_limit(time_limit), line(fmt::format("collect rank {}", rank), std::cerr,
                                                 support::ProgressLine::Mode::Automatic, 0) {}

  std::string state(const std::string& pipeline) const {
    const double seconds = line.elapsed_seconds();
    return fmt::format("{}/{} samples ({} measured now, {:.2f}/s, {} failed) {}", done, expected, measured,
                       seconds > 0 ? measured / seconds : 0.0, failed, pipeline);
  }
  // The share of this run's work done: of the samples it measures, or of its time limit.
  double fraction() const {
    const long left = std::max(0L, expected - done);
    double f = measured + left > 0 ? double(measured) / double(measured + left) : 1.0;
    if (time_limit > 0) f = std::max(f, line.elapsed_seconds() / time_limit);
    return f;
  }
  void print(const std::string& pipeline) { line.update(fraction(), state(pipeline)); }
};

// Draws and measures the schedules of one pipeline; appends the new ones to `shard`.
void collect_pipeline(const Pipeline& p, const Options& o, const models::halide::AnalyticModel& model,
                      const collect::ChildMeasureOptions& measure_options, const std::set<std::string>& known,
                      const std::string& shard, Progress& progress) {
  namespace hb = halide_bridge;
  std::optional<hb::App> app = collect::find_training_pipeline(p.spec);
  if (!app) throw std::invalid_argument("unknown pipeline '" + p.spec + "'");
  // The draw's search keeps a core busy: no other rank times meanwhile.
  std::optional<hb::TimingLock> busy;
  busy.emplace(measure_options.timing_lock, hb::TimingLock::Mode::Shared);
  std::unique_ptr<HalideCpuSpace> space;
  try {
    space = std::make_unique<HalideCpuSpace>(hb::describe_app(app->build(), hb::host_target()));
  } catch (const std::exception& e) {  // BridgeError, or a space with no object to decide
    std::cerr << fmt::format("[rank {}] skipping {}: {}\n", progress.rank, app->name, e.what());
    ++progress.skipped_pipelines;
    progress.expected -= o.schedules_per_pipeline;
    return;
  }
  collect::DrawOptions draw;
  draw.schedules = o.schedules_per_pipeline;
  std::vector<collect::DrawnSchedule> drawn =
      collect::draw_schedules(*space, model, mix(o.seed, std::hash<std::string>{}(app->name)), draw);
  progress.expected -= o.schedules_per_pipeline - static_cast<long>(drawn.size());
  const collect::SampleContext context{app->name, p.random, space.get(), &model};
  std::vector<nlohmann::json> records;
  std::vector<halide_bridge::Schedule> schedules;
  for (const collect::DrawnSchedule& d : drawn) {
    nlohmann::json record = collect::describe_sample(context, d);
    if (known.count(record["key"].get<std::string>())) {
      ++progress.done;
      continue;
    }
    records.push_back(std::move(record));
    schedules.push_back(d.schedule);
  }
  if (schedules.empty()) return;
  busy.reset();
  const std::vector<collect::ChildMeasurement> measured =
      collect::measure_in_children(p.spec, schedules, measure_options);
  for (size_t i = 0; i < records.size(); ++i) {
    collect::add_measurement(records[i], measured[i]);
    collect::append_record(shard, records[i]);
    ++progress.done;
    ++progress.measured;
    if (!measured[i].ok) ++progress.failed;
  }
  progress.print(app->name);
}

int run(const Options& o, int rank, int ranks) {
  std::vector<Pipeline> pipelines;
  if (o.apps) {
    for (const halide_bridge::App& app : apps::all_apps()) pipelines.push_back({app.name, std::nullopt});
  } else {
    pipelines = parse_seeds(o.pipelines, *collect::parse_family(o.family), o.sizes);
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (!fs::is_directory(o.out)) throw std::runtime_error("cannot create the output folder " + o.out);

  // Rank 0 calibrates the machine if needed; the others wait for it, then read it.
  const std::string machine_path = o.machine.empty() ? models::halide::default_machine_path() : o.machine;
  int machine_ready = 1;
  std::string machine_error;
  if (rank == 0) {
    try {
      models::halide::load_or_calibrate(machine_path);
    } catch (const std::exception& e) {
      machine_ready = 0;
      machine_error = e.what();
    }
  }
  MPI_Bcast(&machine_ready, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!machine_ready) throw std::runtime_error("no machine description: " + machine_error);
  const models::halide::AnalyticModel model(models::halide::load_machine(machine_path));

  collect::ChildMeasureOptions measure_options;
  measure_options.worker = o.worker;
  measure_options.reference_cache = (fs::path(o.out) / "references").string();
  measure_options.timeout_seconds = o.timeout;
  measure_options.threads = o.threads;
  measure_options.runs = o.runs;
  measure_options.min_seconds = o.min_seconds;
  measure_options.timing_lock = halide_bridge::timing_lock_path(o.timing_lock);

  const std::string shard = collect::shard_path(o.out, rank);
  collect::drop_torn_tail(shard);
  std::set<std::string> known = collect::read_keys(collect::merged_path(o.out));
  for (const std::string& path : collect::shard_paths(o.out)) {
    std::set<std::string> keys = collect::read_keys(path);
    known.insert(keys.begin(), keys.end());
  }

  Progress progress(rank, o.time_limit);
  for (size_t i = rank; i < pipelines.size(); i += ranks) progress.expected += o.schedules_per_pipeline;
  for (size_t i = rank; i < pipelines.size(); i += ranks) {
    if (o.time_limit > 0 && progress.line.elapsed_seconds() >= o.time_limit) {
      std::cerr << fmt::format("[rank {}] time limit reached: stopping before {}\n", rank, pipelines[i].spec);
      break;
    }
    collect_pipeline(pipelines[i], o, model, measure_options, known, shard, progress);
  }
  progress.line.finish("done: " + progress.state(fmt::format("({} pipelines skipped)", progress.skipped_pipelines)));

  long counts[3] = {progress.measured, progress.failed, progress.skipped_pipelines}, totals[3] = {0, 0, 0};
  MPI_Reduce(counts, totals, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::vector<std::string> inputs = {collect::merged_path(o.out)};
    for (const std::string& path : collect::shard_paths(o.out)) inputs.push_back(path);
    const size_t merged = collect::merge_records(inputs, collect::merged_path(o.out));
    std::cerr << fmt::format("candor_collect: {} samples measured now ({} failed, {} pipelines skipped) on {} ranks; "
                             "{} holds {} samples\n",
                             totals[0], totals[1], totals[2], ranks, collect::merged_path(o.out), merged);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Collect measured samples (pipelines x schedules) for the learned cost model; run it under "
               "mpirun to collect on several ranks (docs/dataset.md)"};
  Options o;
  app.add_option("--out", o.out, "the dataset folder (shards, samples.jsonl, cached references)")->required();
  app.add_option("--pipelines", o.pipelines, "generated pipeline seeds: A:B (A to B-1) or S1,S2,...")
      ->capture_default_str();
  app.add_option("--family", o.family,
                 "the generator: random (2-D image patterns) or layers (channel-shaped DNN layers)")
      ->capture_default_str()->check(CLI::IsMember({"random", "layers"}));
  app.add_option("--sizes", o.sizes,
                 "sizes of the generated pipelines (powers of two, 16-4096; default: the family's, 128 for "
                 "random, 64 for layers): seed s gets the (s mod n)-th")
      ->delimiter(',')
      ->check([](const std::string& s) {
        return collect::parse_random_pipeline_spec("random:0@" + s) ? "" : "not a power of two from 16 to 4096";
      });
  app.add_flag("--apps", o.apps, "collect on the example apps instead of generated pipelines");
  app.add_option("--schedules-per-pipeline", o.schedules_per_pipeline, "schedules drawn per pipeline")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--timeout", o.timeout, "seconds per measurement (compile included)")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--time-limit", o.time_limit,
                 "seconds after which each rank starts no new pipeline (then the shards are merged; rerun to "
                 "resume); 0: none")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--seed", o.seed, "seed of the schedule draws")->capture_default_str();
  app.add_option("--threads", o.threads, "worker threads of each measurement (0: every core)")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--runs", o.runs, "timed runs per measurement; the median is kept")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--min-seconds", o.min_seconds,
                 "further timed runs of a measurement until they took this long in all (small pipelines)")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--timing-lock", o.timing_lock,
                 "machine-wide lock file: ranks (and other work holding it shared, e.g. `flock -s FILE make`) "
                 "compile side by side but never time while another one works; \"none\": no lock")
      ->capture_default_str();
  app.add_option("--machine", o.machine, "machine description (default: build/machine.json, calibrated if missing)");
  app.add_option("--worker", o.worker, "the candor executable (default: the one beside candor_collect)");
  candor::cli::require_decimal_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  if (o.worker.empty()) {
    std::error_code ec;
    o.worker = (fs::read_symlink("/proc/self/exe", ec).parent_path() / "candor").string();
  }
  if (!fs::exists(o.worker)) {
    std::cerr << "candor_collect: error: no worker executable at " << o.worker << " (see --worker)\n";
    return 1;
  }

  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  use_every_cpu();
  int status = 0;
  try {
    status = run(o, rank, ranks);
  } catch (const std::exception& e) {
    std::cerr << fmt::format("candor_collect: error (rank {}): {}\n", rank, e.what());
    // The other ranks may be waiting in a collective: end the whole job.
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
