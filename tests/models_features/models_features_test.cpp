// The random pipeline generators, image and layer (reproducible, cover their vocabularies,
// every pipeline describable, a few realized) and the stage featurization (named, finite, optimistic on
// partial views).
#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "compile.h"
#include "kernel_description.h"
#include "layer_pipelines.h"
#include "machine.h"
#include "random_pipelines.h"
#include "stage_features.h"
#include "tests/machines/recorded_machines.h"
#include "views.h"

namespace {

namespace hb = candor::halide_bridge;
namespace rp = candor::models::random_pipelines;
using namespace candor::models::halide;
using candor::models::halide::testing::fix_random_choice;
using candor::models::halide::testing::open_view;

const MachineDescription& machine() { return candor::testing::recorded_machine_for_host(); }

// The kernel description's JSON without Halide's per-instance names ("blur$2").
std::string stable_json(const hb::KernelDescription& kd) {
  nlohmann::json j = kd;
  std::function<void(nlohmann::json&)> strip = [&](nlohmann::json& x) {
    if (x.is_object()) {
      x.erase("halide_name");
      x.erase("same_in_halide");
      for (auto& [k, v] : x.items()) strip(v);
    } else if (x.is_array()) {
      for (auto& v : x) strip(v);
    }
  };
  strip(j);
  return j.dump();
}

hb::KernelDescription describe(uint64_t seed) {
  return hb::describe_app(rp::random_pipeline(seed).build(), hb::host_target());
}

TEST(RandomPipelines, SameSeedSameKernelDescription) {
  for (uint64_t seed : {1u, 7u, 42u}) {
    EXPECT_EQ(stable_json(describe(seed)), stable_json(describe(seed))) << "seed " << seed;
    const auto ia = rp::random_pipeline_info(seed), ib = rp::random_pipeline_info(seed);
    ASSERT_EQ(ia.stages.size(), ib.stages.size());
    for (size_t i = 0; i < ia.stages.size(); ++i) EXPECT_EQ(ia.stages[i].func, ib.stages[i].func);
  }
  // Different seeds, different pipelines.
  EXPECT_NE(stable_json(describe(1)), stable_json(describe(2)));
}

TEST(RandomPipelines, CoversTheVocabulary) {
  std::map<rp::Pattern, int> uses;
  std::set<std::string> types;
  size_t min_stages = 1000, max_stages = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const auto info = rp::random_pipeline_info(seed);
    min_stages = std::min(min_stages, info.stages.size());
    max_stages = std::max(max_stages, info.stages.size());
    for (const auto& s : info.stages) {
      uses[s.pattern]++;
      types.insert(s.type);
    }
    for (const auto& t : info.input_types) types.insert(t);
  }
  std::string report;
  for (rp::Pattern p : rp::all_patterns()) {
    EXPECT_GT(uses[p], 0) << rp::pattern_name(p);
    report += std::string(rp::pattern_name(p)) + "=" + std::to_string(uses[p]) + " ";
  }
  std::cout << "[ patterns over 300 seeds ] " << report << "\n[ stages ] " << min_stages << ".." << max_stages
            << "\n";
  EXPECT_GE(min_stages, 2u);
  EXPECT_LE(max_stages, 30u);
  for (const char* t : {"uint8", "uint16", "float32"}) EXPECT_TRUE(types.count(t)) << t;
}

TEST(RandomPipelines, EveryPipelineIsDescribable) {
  int reachable = 0, generated = 0;
  for (uint64_t seed = 100; seed < 130; ++seed) {
    const auto info = rp::random_pipeline_info(seed);
    hb::KernelDescription kd;
    try {
      kd = describe(seed);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "seed " << seed << ": " << e.what() << "\n" << rp::random_pipeline(seed).description;
      continue;
    }
    EXPECT_EQ(kd.outputs.size(), 1u);
    ASSERT_NE(kd.find_func(info.stages.back().func), nullptr) << "seed " << seed;
    EXPECT_TRUE(kd.find_func(info.stages.back().func)->is_output);
    EXPECT_EQ(kd.outputs.front(), info.stages.back().func);
    // Values no later pattern consumed are dead: not in the pipeline.
    for (const auto& s : info.stages) reachable += kd.find_func(s.func) != nullptr;
    generated += int(info.stages.size());
  }
  std::cout << "[ reachable ] " << reachable << " of " << generated << " generated stages\n";
  EXPECT_GT(2 * reachable, generated);
}

TEST(RandomPipelines, RealizeWithTheReferenceSchedule) {
  // JIT compilation dominates: a handful of seeds only.
  for (uint64_t seed : {3u, 11u, 19u, 23u, 31u}) {
    const hb::App app = rp::random_pipeline(seed);
    hb::Outputs out;
    try {
      out = hb::reference_outputs(app, hb::host_target());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "seed " << seed << ": " << e.what() << "\n" << app.description;
      continue;
    }
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].dim(0).extent(), rp::RandomPipelineOptions().size);
  }
}

hb::KernelDescription describe_layers(uint64_t seed) {
  return hb::describe_app(rp::layer_pipeline(seed).build(), hb::host_target());
}

TEST(LayerPipelines, SameSeedSameKernelDescription) {
  for (uint64_t seed : {1u, 7u, 42u}) {
    EXPECT_EQ(stable_json(describe_layers(seed)), stable_json(describe_layers(seed))) << "seed " << seed;
    const auto ia = rp::layer_pipeline_info(seed), ib = rp::layer_pipeline_info(seed);
    ASSERT_EQ(ia.stages.size(), ib.stages.size());
    for (size_t i = 0; i < ia.stages.size(); ++i) EXPECT_EQ(ia.stages[i].func, ib.stages[i].func);
  }
  EXPECT_NE(stable_json(describe_layers(1)), stable_json(describe_layers(2)));
}

TEST(LayerPipelines, CoverTheVocabularyWithChannelsAndLevels) {
  std::map<rp::Layer, int> uses;
  std::set<int> channels, levels, input_channels;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const auto info = rp::layer_pipeline_info(seed);
    input_channels.insert(info.input_channels);
    for (const auto& s : info.stages) {
      uses[s.layer]++;
      channels.insert(s.channels);
      levels.insert(s.level);
    }
    ASSERT_EQ(info.output_size.size(), 3u);
    EXPECT_EQ(info.output_size[0], info.stages.back().channels) << "seed " << seed;
    EXPECT_EQ(info.output_size[1], rp::LayerPipelineOptions().size >> info.stages.back().level) << "seed " << seed;
  }
  std::string report;
  for (rp::Layer l : rp::all_layers()) {
    EXPECT_GT(uses[l], 0) << rp::layer_name(l);
    report += std::string(rp::layer_name(l)) + "=" + std::to_string(uses[l]) + " ";
  }
  std::cout << "[ layers over 300 seeds ] " << report << "\n";
  for (int c : {3, 8, 16, 32}) EXPECT_TRUE(input_channels.count(c)) << c;
  for (int c : {8, 16, 32, 64}) EXPECT_TRUE(channels.count(c)) << c;
  for (int l : {0, 1, 2}) EXPECT_TRUE(levels.count(l)) << l;
}

// Every layer reads its operands as the kernel description says: the output is the last
// stage, the convolutions' reductions are over channels (an RDom whose extent is the input's
// channel count) and every weight is an input.
TEST(LayerPipelines, EveryPipelineIsDescribable) {
  int channel_reductions = 0;
  for (uint64_t seed = 100; seed < 130; ++seed) {
    const auto info = rp::layer_pipeline_info(seed);
    hb::KernelDescription kd;
    try {
      kd = describe_layers(seed);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "seed " << seed << ": " << e.what() << "\n" << rp::layer_pipeline(seed).description;
      continue;
    }
    ASSERT_EQ(kd.outputs.size(), 1u);
    EXPECT_EQ(kd.outputs.front(), info.stages.back().func);
    for (const auto& s : info.stages) {
      const hb::FuncInfo* f = kd.find_func(s.func);
      if (!f || (s.layer != rp::Layer::Conv3x3 && s.layer != rp::Layer::Pointwise1x1) || f->stages.size() < 2)
        continue;
      ++channel_reductions;
      const auto& loops = f->stages[1].loops;
      EXPECT_TRUE(std::any_of(loops.begin(), loops.end(), [](const hb::LoopInfo& l) { return l.is_rvar; }))
          << s.func;
    }
  }
  EXPECT_GT(channel_reductions, 10);
}

TEST(LayerPipelines, RealizeWithTheReferenceSchedule) {
  for (uint64_t seed : {3u, 11u, 19u}) {
    const hb::App app = rp::layer_pipeline(seed);
    hb::Outputs out;
    try {
      out = hb::reference_outputs(app, hb::host_target());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "seed " << seed << ": " << e.what() << "\n" << app.description;
      continue;
    }
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].dimensions(), 3);
    EXPECT_EQ(out[0].dim(0).extent(), rp::layer_pipeline_info(seed).output_size[0]);
  }
}

TEST(StageFeatures, SchemaIsNamed) {
  const auto& names = feature_names();
  ASSERT_EQ(int(names.size()), kNumFeatures);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  EXPECT_STREQ(feature_name(Feature::points_computed), "points_computed");
}

// A complete view: every open choice fixed at random.
ScheduleView random_completion(ScheduleView v, std::mt19937_64& rng) {
  while (fix_random_choice(v, rng)) {
  }
  return v;
}

TEST(StageFeatures, CompleteViewsAreFiniteAndNamed) {
  std::mt19937_64 rng(5);
  for (uint64_t seed : {2u, 9u, 17u, 28u}) {
    const hb::KernelDescription kd = describe(seed);
    size_t n_stages = 0;
    for (const auto& f : kd.funcs) n_stages += f.stages.size();
    for (int k = 0; k < 5; ++k) {
      const ScheduleView v = random_completion(open_view(kd), rng);
      const auto rows = featurize(kd, v, machine());
      ASSERT_EQ(rows.size(), n_stages);
      for (const StageFeatures& r : rows) {
        for (int i = 0; i < kNumFeatures; ++i)
          EXPECT_TRUE(std::isfinite(r.values[size_t(i)])) << r.func << " " << feature_names()[size_t(i)];
        EXPECT_EQ(r[Feature::placement_open], 0);
        const nlohmann::json j = r;
        EXPECT_EQ(j["features"].size(), size_t(kNumFeatures));
        EXPECT_EQ(r.get("stage_points"), r[Feature::stage_points]);
        if (r[Feature::inlined] == 0) {
          EXPECT_GT(r[Feature::points_computed], 0) << r.func;
        }
      }
    }
  }
}

TEST(StageFeatures, PartialViewsAreOptimistic) {
  // Reopening placements (where, sliding) and the per-stage Bool choices of a completion:
  // the partial view's points computed is never above that of any completion of it.
  std::mt19937_64 rng(11);
  int checked = 0, skipped = 0;
  for (uint64_t seed : {2u, 9u, 17u, 28u, 40u}) {
    const hb::KernelDescription kd = describe(seed);
    const ScheduleView open = open_view(kd);
    for (int k = 0; k < 4; ++k) {
      const ScheduleView done = random_completion(open, rng);
      ScheduleView partial = done;
      for (size_t f = 0; f < partial.funcs.size(); ++f) {
        if (rng() % 2) continue;
        partial.funcs[f].where = open.funcs[f].where;
        partial.funcs[f].sliding = open.funcs[f].sliding;
        for (size_t s = 0; s < partial.funcs[f].stages.size(); ++s) {
          partial.funcs[f].stages[s].parallel = open.funcs[f].stages[s].parallel;
          partial.funcs[f].stages[s].vectorize = open.funcs[f].stages[s].vectorize;
        }
      }
      const auto p = featurize(kd, partial, machine());
      for (int c = 0; c < 6; ++c) {
        const ScheduleView completion = random_completion(partial, rng);
        const auto q = featurize(kd, completion, machine());
        ASSERT_EQ(p.size(), q.size());
        for (size_t i = 0; i < p.size(); ++i) {
          // The analytic model counts a Func computed inside a consumer over its tiles'
          // footprints, which can come out below the Func's region (a known approximation of
          // that model): such completions are not compared.
          if (q[i][Feature::at_tile] || q[i][Feature::at_subtile]) {
            ++skipped;
            continue;
          }
          EXPECT_LE(p[i][Feature::points_computed], q[i][Feature::points_computed] * (1 + 1e-9) + 1e-9)
              << "seed " << seed << " " << p[i].func << " stage " << p[i].stage;
          ++checked;
        }
      }
    }
  }
  std::cout << "[ compared ] " << checked << " stage rows, " << skipped << " inside a consumer skipped\n";
  EXPECT_GT(checked, 100);
}

}  // namespace
