// The pieces of sample collection: dataset shards (atomic lines, torn tails, merge), the
// reference cache's file format, pipelines by name, and reproducible schedule draws.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

#include <gtest/gtest.h>

#include "dataset.h"
#include "draw.h"
#include "measure_child.h"
#include "halide_bridge/compile.h"
#include "models/halide/machine.h"
#include "pipelines.h"
#include "reference_cache.h"
#include "refeaturize.h"
#include "sample.h"

namespace candor::collect {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    char name[] = "/tmp/candor_collect_test_XXXXXX";
    path_ = mkdtemp(name);
  }
  ~TempDir() { fs::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A generated pipeline's space for `target` and `n` schedules drawn from it (draw seed 7).
struct DrawnPipeline {
  std::string name;
  std::unique_ptr<HalideCpuSpace> space;
  std::vector<DrawnSchedule> drawn;
};
DrawnPipeline draw_from(const RandomPipelineSpec& spec, const Halide::Target& target,
                        const models::halide::AnalyticModel& model, int n) {
  std::optional<halide_bridge::App> app = find_pipeline(random_pipeline_spec(spec));
  if (!app) throw std::invalid_argument("no generated pipeline " + random_pipeline_spec(spec));
  DrawnPipeline out{app->name, std::make_unique<HalideCpuSpace>(halide_bridge::describe_app(app->build(), target)), {}};
  DrawOptions options;
  options.schedules = n;
  out.drawn = draw_schedules(*out.space, model, 7, options);
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Dataset, KeysNameThePipelineAndHashTheSchedule) {
  halide_bridge::Schedule a, b;
  b.funcs["f"].compute.kind = halide_bridge::Location::Kind::Root;
  const std::string ka = sample_key("random_3", a), kb = sample_key("random_3", b);
  EXPECT_EQ(ka.rfind("random_3/", 0), 0u);
  EXPECT_EQ(ka.size(), std::string("random_3/").size() + 16);
  EXPECT_NE(ka, kb);
  EXPECT_EQ(ka, sample_key("random_3", a));
  EXPECT_NE(ka, sample_key("random_4", a));
}

TEST(Dataset, ATornLastLineIsSkippedThenCutOffBeforeTheNextAppend) {
  TempDir dir;
  const std::string shard = shard_path(dir.path(), 0);
  append_record(shard, {{"key", "p/1"}, {"ok", true}});
  append_record(shard, {{"key", "p/2"}, {"ok", false}});
  { std::ofstream(shard, std::ios::app) << R"({"key": "p/3", "ok": tr)"; }
  EXPECT_EQ(read_keys(shard), (std::set<std::string>{"p/1", "p/2"}));
  EXPECT_EQ(drop_torn_tail(shard), std::string(R"({"key": "p/3", "ok": tr)").size());
  EXPECT_EQ(drop_torn_tail(shard), 0u);
  append_record(shard, {{"key", "p/3"}, {"ok", true}});
  const std::vector<nlohmann::json> records = read_records(shard);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[2]["key"], "p/3");
  const std::string text = read_file(shard);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
}

TEST(Dataset, MergeKeepsEveryKeyOnceFirstOccurrenceWinning) {
  TempDir dir;
  append_record(shard_path(dir.path(), 0), {{"key", "p/1"}, {"v", 0}});
  append_record(shard_path(dir.path(), 0), {{"key", "p/2"}, {"v", 0}});
  append_record(shard_path(dir.path(), 10), {{"key", "p/2"}, {"v", 10}});
  append_record(shard_path(dir.path(), 2), {{"key", "p/3"}, {"v", 2}});
  { std::ofstream(fs::path(dir.path()) / "shard-x.jsonl") << R"({"key": "p/9"})" << "\n"; }
  const std::vector<std::string> shards = shard_paths(dir.path());
  ASSERT_EQ(shards.size(), 3u);  // by rank: 0, 2, 10; shard-x is not a shard
  EXPECT_EQ(shards[2], shard_path(dir.path(), 10));
  std::vector<std::string> inputs = {merged_path(dir.path())};  // absent: no records
  inputs.insert(inputs.end(), shards.begin(), shards.end());
  EXPECT_EQ(merge_records(inputs, merged_path(dir.path())), 3u);
  const std::vector<nlohmann::json> merged = read_records(merged_path(dir.path()));
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[1]["key"], "p/2");
  EXPECT_EQ(merged[1]["v"], 0);
  // Merging again (the merged file first) changes nothing.
  EXPECT_EQ(merge_records(inputs, merged_path(dir.path())), 3u);
}

TEST(ReferenceCache, OutputsRoundTripAndABrokenFileIsRejected) {
  TempDir dir;
  Halide::Buffer<float> f(3, 2);
  Halide::Buffer<uint8_t> u(5);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) f(x, y) = 0.5f * x - y;
  for (int x = 0; x < 5; ++x) u(x) = static_cast<uint8_t>(200 + x);
  const halide_bridge::Outputs outputs = {f, u};
  const std::string path = dir.path() + "/p.ref";
  ASSERT_TRUE(write_outputs(outputs, path));
  halide_bridge::Outputs back;
  ASSERT_TRUE(read_outputs(path, back));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].type(), Halide::Float(32));
  EXPECT_EQ(back[0].dim(0).extent(), 3);
  EXPECT_EQ(back[0].dim(1).extent(), 2);
  EXPECT_TRUE(halide_bridge::compare_outputs(back, outputs, {0, 0}).ok);

  const std::string text = read_file(path);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text.substr(0, text.size() - 1);
  EXPECT_FALSE(read_outputs(path, back));
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "not a reference";
  EXPECT_FALSE(read_outputs(path, back));
  EXPECT_FALSE(read_outputs(dir.path() + "/missing.ref", back));
}

// A worker that hangs on every schedule: each child is killed after the per-schedule limit,
// and after two timeouts in a row the pipeline's other schedules are not tried.
TEST(MeasureChild, APipelineWhoseSchedulesKeepTimingOutIsGivenUp) {
  TempDir dir;
  const std::string worker = dir.path() + "/hang.sh", calls = dir.path() + "/calls";
  std::ofstream(worker) << "#!/bin/sh\necho x >> " << calls << "\nsleep 30\n";
  fs::permissions(worker, fs::perms::owner_all);
  ChildMeasureOptions options;
  options.worker = worker;
  options.timeout_seconds = 0.5;
  const std::vector<halide_bridge::Schedule> schedules(4);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<ChildMeasurement> results = measure_in_children("random:1", schedules, options);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].failure, "timeout");
  EXPECT_EQ(results[1].failure, "timeout");
  for (size_t i : {2, 3}) {
    EXPECT_FALSE(results[i].ok);
    EXPECT_EQ(results[i].failure.rfind("timeout (not tried", 0), 0u) << results[i].failure;
  }
  std::ifstream in(calls);
  EXPECT_EQ(std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'), 2);
}

TEST(Pipelines, FoundByAppNameOrRandomSeed) {
  ASSERT_TRUE(find_pipeline("box_blur").has_value());
  std::optional<halide_bridge::App> random = find_pipeline(random_pipeline_spec({17}));
  ASSERT_TRUE(random.has_value());
  EXPECT_EQ(random->name, "random_17");
  EXPECT_FALSE(find_pipeline("random:").has_value());
  EXPECT_FALSE(find_pipeline("random:-1").has_value());
  EXPECT_FALSE(find_pipeline("random:1x").has_value());
  EXPECT_FALSE(find_pipeline("no_such_app").has_value());
}

TEST(Pipelines, ARandomPipelinesSpecMayNameItsSize) {
  EXPECT_EQ(random_pipeline_spec({17}), "random:17");
  EXPECT_EQ(random_pipeline_spec({17, 1024}), "random:17@1024");
  std::optional<halide_bridge::App> large = find_pipeline("random:17@1024");
  ASSERT_TRUE(large.has_value());
  EXPECT_EQ(large->name, "random_17_1024");  // another pipeline than random_17
  const halide_bridge::AppInstance instance = large->build();
  ASSERT_EQ(instance.output_sizes.size(), 1u);
  EXPECT_EQ(instance.output_sizes[0], (std::vector<int>{1024, 1024}));
  // The same seed draws the same stages at any size.
  EXPECT_EQ(large->description, find_pipeline("random:17")->description);
  for (const char* bad : {"random:17@", "random:17@1000", "random:17@8", "random:17@8192", "random:17@x", "random:@64"})
    EXPECT_FALSE(find_pipeline(bad).has_value()) << bad;
}

// Halide 14 lowers this beam pick of random_39 (s8_col_reduce's update split 32 then 16 and
// vectorized, computed inside s9_normalize's tiles) to a pipeline that writes nothing. Timed
// after a schedule that wrote the right answer, in the same process, it verified: its fresh
// output buffer was the other's memory. It must fail verification wherever it runs.
TEST(Measure, AScheduleThatWritesNothingFailsVerificationAfterOneThatWroteTheAnswer) {
  std::optional<halide_bridge::App> app = find_pipeline("random:39");
  ASSERT_TRUE(app.has_value());
  const Halide::Target target = halide_bridge::host_target();
  const halide_bridge::KernelDescription kd = halide_bridge::describe_app(app->build(), target);
  const halide_bridge::Outputs reference = halide_bridge::reference_outputs(*app, target);
  std::ifstream in(std::string(CANDOR_COLLECT_TEST_DATA) + "/random_39_writes_nothing.json");
  ASSERT_TRUE(in.good());
  const halide_bridge::Schedule writes_nothing = nlohmann::json::parse(in).get<halide_bridge::Schedule>();
  halide_bridge::RunOptions options;
  options.timed_runs = 1;
  const halide_bridge::EvalResult right =
      halide_bridge::evaluate_schedule(*app, halide_bridge::root_schedule(kd), kd, reference, target, options);
  ASSERT_TRUE(right.ok) << right.failed_step << ": " << right.error;
  const halide_bridge::EvalResult after =
      halide_bridge::evaluate_schedule(*app, writes_nothing, kd, reference, target, options);
  EXPECT_FALSE(after.ok);
  EXPECT_EQ(after.failed_step, "verify") << after.error;
}

TEST(Draw, SchedulesAreDistinctCompleteAndReproducible) {
  const char* machine_path = std::getenv("CANDOR_MACHINE");
  ASSERT_NE(machine_path, nullptr) << "the test needs CANDOR_MACHINE (the calibrate_machine fixture)";
  const models::halide::AnalyticModel model(models::halide::load_machine(machine_path));
  std::optional<halide_bridge::App> app = find_pipeline(random_pipeline_spec({3}));
  ASSERT_TRUE(app.has_value());
  const HalideCpuSpace space(halide_bridge::describe_app(app->build(), halide_bridge::host_target()));
  DrawOptions options;
  options.schedules = 8;
  const std::vector<DrawnSchedule> first = draw_schedules(space, model, 42, options);
  const std::vector<DrawnSchedule> again = draw_schedules(space, model, 42, options);
  const std::vector<DrawnSchedule> other = draw_schedules(space, model, 43, options);
  ASSERT_EQ(first.size(), 8u);
  ASSERT_EQ(again.size(), first.size());
  std::set<std::string> keys, other_keys;
  int random = 0, beam = 0;
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_TRUE(space.is_complete(first[i].candidate));
    EXPECT_TRUE(space.satisfies_all(first[i].candidate));
    EXPECT_EQ(first[i].schedule, again[i].schedule);
    EXPECT_EQ(first[i].decisions.size(), static_cast<size_t>(space.num_vars()));
    keys.insert(sample_key(app->name, first[i].schedule));
    random += first[i].source == "random";
    beam += first[i].source == "beam";
  }
  for (const DrawnSchedule& d : other) other_keys.insert(sample_key(app->name, d.schedule));
  EXPECT_EQ(keys.size(), first.size());
  EXPECT_EQ(random, 2);  // a quarter
  EXPECT_EQ(beam, 2);    // a quarter: the beam search's best two, best first
  EXPECT_EQ(first[0].source, "beam");
  EXPECT_EQ(first[2].source, "dropout_greedy");
  // The model's own greedy schedule is among the samples: the first greedy descent, unless
  // the beam search found it first (whether it does depends on the machine file).
  DrawOptions greedy_only;
  greedy_only.schedules = 1;
  greedy_only.beam_share = 0;
  greedy_only.random_share = 0;
  const std::vector<DrawnSchedule> greedy = draw_schedules(space, model, 42, greedy_only);
  ASSERT_EQ(greedy.size(), 1u);
  EXPECT_EQ(greedy[0].dropout, 0);
  EXPECT_EQ(keys.count(sample_key(app->name, greedy[0].schedule)), 1u);
  const bool beam_found_it = first[0].schedule == greedy[0].schedule || first[1].schedule == greedy[0].schedule;
  if (!beam_found_it) {
    EXPECT_EQ(first[2].dropout, 0);
  }
  EXPECT_NE(keys, other_keys);
}

// Samples whose features and terms went out of date are rewritten from their decisions; a
// sample whose decisions no longer replay to the measured schedule is dropped.
TEST(Refeaturize, RestoresFeaturesFromDecisionsAndDropsStaleSamples) {
  const char* machine_path = std::getenv("CANDOR_MACHINE");
  ASSERT_NE(machine_path, nullptr) << "the test needs CANDOR_MACHINE (the calibrate_machine fixture)";
  const models::halide::MachineDescription machine = models::halide::load_machine(machine_path);
  const models::halide::AnalyticModel model(machine);
  const DrawnPipeline p = draw_from({3}, halide_bridge::host_target(), model, 4);
  const HalideCpuSpace& space = *p.space;
  const std::vector<DrawnSchedule>& drawn = p.drawn;
  ASSERT_EQ(drawn.size(), 4u);
  TempDir dir;
  const std::string in = dir.path() + "/in.jsonl", out = dir.path() + "/out.jsonl";
  std::vector<nlohmann::json> expected;
  for (size_t i = 0; i < drawn.size(); ++i) {
    nlohmann::json record = describe_sample({"random_3", RandomPipelineSpec{3}, &space, &model}, drawn[i]);
    record["ok"] = true;
    record["runtime_ms"] = 1.5 + double(i);
    expected.push_back(record);
    if (i == 1) {  // features and terms from an older model, tails from an older workaround
      record["predicted_s"] = 0;
      for (auto& stage : record["stages"]) stage["features"]["points_computed"] = -1;
      for (auto& [name, func] : record["schedule"]["funcs"].items())
        for (auto& stage : func["stages"])
          for (auto& split : stage["splits"]) split["tail"] = "RoundUp";
      expected.back()["schedule"] = record["schedule"];  // the measured schedule is kept
    }
    if (i == 2) record["schedule"]["funcs"] = nlohmann::json::object();  // another schedule was measured
    if (i == 3) record["decisions"][0][1] = "NO_SUCH_VALUE";
    append_record(in, record);
  }
  const RefeaturizeStats stats = refeaturize(in, out, machine);
  EXPECT_EQ(stats.read, 4u);
  EXPECT_EQ(stats.written, 2u);
  EXPECT_EQ(stats.stale, 2u);
  const std::vector<nlohmann::json> written = read_records(out);
  ASSERT_EQ(written.size(), 2u);
  EXPECT_EQ(written[0], expected[0]);
  EXPECT_EQ(written[1], expected[1]);
}

// A dataset measured on another machine class (here an SSE4.1 target, 4 float lanes: neither
// an AVX2 nor an AVX-512 host's width) replays in the space of the target its machine
// description names, not this host's.
TEST(Refeaturize, ReplaysSamplesInTheSpaceOfTheMachinesTarget) {
  const char* machine_path = std::getenv("CANDOR_MACHINE");
  ASSERT_NE(machine_path, nullptr) << "the test needs CANDOR_MACHINE (the calibrate_machine fixture)";
  models::halide::MachineDescription machine = models::halide::load_machine(machine_path);
  machine.halide_target = "x86-64-linux-sse41-jit";
  const Halide::Target target(machine.halide_target);
  ASSERT_NE(target.natural_vector_size(Halide::Float(32)),
            halide_bridge::host_target().natural_vector_size(Halide::Float(32)));
  const models::halide::AnalyticModel model(machine);
  const DrawnPipeline p = draw_from({3}, target, model, 4);
  const HalideCpuSpace& space = *p.space;
  const std::vector<DrawnSchedule>& drawn = p.drawn;
  ASSERT_EQ(drawn.size(), 4u);
  TempDir dir;
  const std::string in = dir.path() + "/in.jsonl", out = dir.path() + "/out.jsonl";
  for (const DrawnSchedule& d : drawn) {
    nlohmann::json record = describe_sample({"random_3", RandomPipelineSpec{3}, &space, &model}, d);
    record["ok"] = true;
    record["runtime_ms"] = 1.0;
    append_record(in, record);
  }
  const RefeaturizeStats stats = refeaturize(in, out, machine);
  EXPECT_EQ(stats.written, 4u);
  EXPECT_EQ(stats.stale, 0u);
}

// A random pipeline at another size is rebuilt at that size: its record names the size, and
// the rewritten features are that pipeline's, not the default size's.
TEST(Pipelines, LayerPipelinesAreNamedByTheirOwnFamily) {
  EXPECT_EQ(random_pipeline_spec({17, 64, PipelineFamily::Layers}), "layers:17");
  EXPECT_EQ(random_pipeline_spec({17, 128, PipelineFamily::Layers}), "layers:17@128");
  const std::optional<RandomPipelineSpec> parsed = parse_random_pipeline_spec("layers:17@32");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->family, PipelineFamily::Layers);
  EXPECT_EQ(parsed->seed, 17u);
  EXPECT_EQ(parsed->size, 32);
  std::optional<halide_bridge::App> layers = find_pipeline("layers:17");
  ASSERT_TRUE(layers.has_value());
  EXPECT_EQ(layers->name, "layers_17");
  EXPECT_EQ(find_pipeline("layers:17@32")->name, "layers_17_32");
  EXPECT_NE(layers->description, find_pipeline("random:17")->description);
  // A layer pipeline's output has channels: three dimensions.
  EXPECT_EQ(layers->build().output_sizes.at(0).size(), 3u);
  for (const char* bad : {"layers:", "layers:x", "layers:17@100", "layer:17", "Layers:17"})
    EXPECT_FALSE(find_pipeline(bad).has_value()) << bad;
}

TEST(Refeaturize, RebuildsGeneratedPipelinesOfTheirRecordedFamilyAndSize) {
  const char* machine_path = std::getenv("CANDOR_MACHINE");
  ASSERT_NE(machine_path, nullptr) << "the test needs CANDOR_MACHINE (the calibrate_machine fixture)";
  const models::halide::MachineDescription machine = models::halide::load_machine(machine_path);
  const models::halide::AnalyticModel model(machine);
  struct Case {
    RandomPipelineSpec spec;
    const char* name;
  };
  for (const Case& c : {Case{{3, 512}, "random_3_512"}, Case{{5, 32, PipelineFamily::Layers}, "layers_5_32"}}) {
    const DrawnPipeline p = draw_from(c.spec, halide_bridge::host_target(), model, 3);
    ASSERT_EQ(p.drawn.size(), 3u);
    TempDir dir;
    const std::string in = dir.path() + "/in.jsonl", out = dir.path() + "/out.jsonl";
    std::vector<nlohmann::json> expected;
    for (const DrawnSchedule& d : p.drawn) {
      nlohmann::json record = describe_sample({p.name, c.spec, p.space.get(), &model}, d);
      EXPECT_EQ(record["pipeline"], c.name);
      EXPECT_EQ(record["seed"], c.spec.seed);
      EXPECT_EQ(record["size"], c.spec.size);
      if (c.spec.family == PipelineFamily::Layers) EXPECT_EQ(record["family"], "layers");
      else EXPECT_FALSE(record.contains("family"));
      record["ok"] = true;
      record["runtime_ms"] = 1.0;
      expected.push_back(record);
      record["predicted_s"] = 0;
      for (auto& stage : record["stages"]) stage["features"]["points_computed"] = -1;
      append_record(in, record);
    }
    const RefeaturizeStats stats = refeaturize(in, out, machine);
    EXPECT_EQ(stats.written, 3u) << c.name;
    EXPECT_EQ(stats.stale, 0u) << c.name;
    EXPECT_EQ(read_records(out), expected) << c.name;
  }
}

}  // namespace
}  // namespace candor::collect
