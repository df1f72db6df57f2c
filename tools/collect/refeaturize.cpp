#include "refeaturize.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "dataset.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/kernel_description.h"
#include "pipelines.h"
#include "sample.h"

namespace candor::collect {
namespace {

// One pipeline's space, built once for all of its samples.
struct PipelineSpace {
  std::unique_ptr<HalideCpuSpace> space;
  std::unordered_map<std::string, int> var_index;
};

std::optional<PipelineSpace> space_for(const nlohmann::json& record, const Halide::Target& target) {
  std::string spec = record.value("pipeline", "");
  if (record.contains("seed")) {
    const std::optional<PipelineFamily> family = parse_family(record.value("family", "random"));
    if (!family) return std::nullopt;
    spec = random_pipeline_spec(
        RandomPipelineSpec{record["seed"].get<uint64_t>(), record.value("size", default_size(*family)), *family});
  }
  std::optional<halide_bridge::App> app = find_training_pipeline(spec);
  if (!app) return std::nullopt;
  PipelineSpace out;
  out.space = std::make_unique<HalideCpuSpace>(
      halide_bridge::describe_app(app->build(), target));
  for (int v = 0; v < out.space->num_vars(); ++v) out.var_index[out.space->var_name(v)] = v;
  return out;
}

// The candidate the decisions describe, or nullopt when they no longer replay.
std::optional<Candidate> replay(const PipelineSpace& ps, const nlohmann::json& decisions) {
  const HalideCpuSpace& space = *ps.space;
  std::optional<Candidate> c = space.root();
  if (!c) return std::nullopt;
  for (const auto& d : decisions) {
    auto var = ps.var_index.find(d.at(0).get<std::string>());
    if (var == ps.var_index.end()) return std::nullopt;
    const int value = space.value_named(*c, var->second, d.at(1).get<std::string>());
    if (value < 0 || !space.fix(*c, var->second, value)) return std::nullopt;
  }
  if (space.first_open_var(*c) >= 0) return std::nullopt;
  return c;
}

// The schedule without its splits' tail strategies: those follow from the candidate (and
// change when a Halide workaround does) and barely move the runtime, so a sample stays
// valid across them.
nlohmann::json without_tails(nlohmann::json schedule) {
  for (auto& [name, func] : schedule["funcs"].items())
    for (auto& stage : func["stages"])
      for (auto& split : stage["splits"]) split.erase("tail");
  return schedule;
}

}  // namespace

RefeaturizeStats refeaturize(const std::string& input, const std::string& output,
                             const models::halide::MachineDescription& machine) {
  RefeaturizeStats stats;
  const models::halide::AnalyticModel model(machine);
  // The samples were measured on the machine the description was calibrated on: its vector
  // widths, not this host's, decide the space their decisions replay in.
  const Halide::Target target =
      machine.halide_target.empty() ? halide_bridge::host_target() : Halide::Target(machine.halide_target);
  std::map<std::string, std::optional<PipelineSpace>> spaces;
  const std::string temporary = output + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + temporary);
    for (nlohmann::json& record : read_records(input)) {
      ++stats.read;
      const std::string pipeline = record.value("pipeline", "");
      auto it = spaces.find(pipeline);
      if (it == spaces.end()) it = spaces.emplace(pipeline, space_for(record, target)).first;
      if (!it->second) {
        ++stats.unknown_pipeline;
        continue;
      }
      const PipelineSpace& ps = *it->second;
      std::optional<Candidate> c = replay(ps, record.value("decisions", nlohmann::json::array()));
      if (!c) {
        ++stats.stale;
        continue;
      }
      DrawnSchedule drawn{record.value("source", ""), record.value("dropout", 0.0), *c,
                          ps.space->to_schedule(*c), {}};
      if (without_tails(drawn.schedule) != without_tails(record["schedule"])) {
        ++stats.stale;
        continue;
      }
      drawn.decisions = record["decisions"].get<std::vector<std::pair<std::string, std::string>>>();
      SampleContext context{pipeline, std::nullopt, ps.space.get(), &model};
      nlohmann::json fresh = describe_sample(context, drawn);
      for (const char* field : {"predicted_s", "stages"}) record[field] = std::move(fresh[field]);
      out << record.dump() << '\n';
      ++stats.written;
    }
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary);
  }
  if (std::rename(temporary.c_str(), output.c_str()) != 0) {
    throw std::runtime_error("cannot rename " + temporary + " to " + output);
  }
  return stats;
}

}  // namespace candor::collect
