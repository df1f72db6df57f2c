// Fuzzes the schedule JSON reader and the checks behind `candor measure --schedule`: any
// input is refused with a BridgeError or read into a schedule that then goes through the
// validation (lowering, loop nests, locations) of a small pipeline with an update stage, a
// reduction and a stencil. A schedule that reads must print back to JSON that reads the same.
#include <Halide.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "kernel_description.h"
#include "schedule.h"
#include "validate.h"

namespace {

namespace hb = candor::halide_bridge;

const hb::KernelDescription& kernel() {
  static const std::unique_ptr<hb::KernelDescription> kd = [] {
    Halide::ImageParam input(Halide::Float(32), 2, "input");
    Halide::Var x("x"), y("y");
    Halide::Func clamped("clamped"), blur_x("blur_x"), histogram("histogram"), out("out");
    clamped(x, y) = Halide::BoundaryConditions::repeat_edge(input)(x, y);
    blur_x(x, y) = clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y);
    Halide::RDom r(0, 8, "r");
    histogram(x) = 0.0f;
    histogram(x) += blur_x(x, r);
    out(x, y) = blur_x(x, y - 1) + blur_x(x, y + 1) + histogram(x);
    input.set_estimates({{0, 256}, {0, 256}});
    out.set_estimates({{0, 256}, {0, 256}});
    return std::make_unique<hb::KernelDescription>(
        hb::describe_pipeline(Halide::Pipeline(out), Halide::get_host_target()));
  }();
  return *kd;
}

}  // namespace

// Seeds for the corpus: the root and reference schedules of the kernel, and one with a
// split, a loop order, vector and parallel loops, and a Func computed at a loop.
void write_seeds(const std::string& dir) {
  const hb::KernelDescription& kd = kernel();
  hb::Schedule tiled = hb::reference_schedule(kd);
  hb::StageSchedule& stage = tiled.funcs.at(kd.outputs.at(0)).stages.emplace_back();
  stage.splits.push_back(hb::make_split("x", 8));
  stage.order = {"x_i", "x_o", "y"};
  stage.annotations = {{"x_i", hb::LoopAnnotation::Vectorized}, {"y", hb::LoopAnnotation::Parallel}};
  int n = 0;
  for (const hb::Schedule& s : {hb::root_schedule(kd), hb::reference_schedule(kd), tiled}) {
    std::ofstream(dir + "/seed" + std::to_string(n++) + ".json") << nlohmann::json(s).dump(1) << "\n";
  }
}

// FUZZ_WRITE_SEEDS=DIR writes the seeds there (scripts/fuzz.sh runs it with -runs=0).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("FUZZ_WRITE_SEEDS")) write_seeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;
  hb::Schedule schedule;
  try {
    schedule = j.get<hb::Schedule>();
  } catch (const hb::BridgeError&) {
    return 0;
  }
  const nlohmann::json printed = schedule;
  if (!(printed.get<hb::Schedule>() == schedule)) std::abort();
  hb::missing_decisions(schedule, kernel());
  hb::schedule_problems(schedule, kernel(), Halide::get_host_target());
  return 0;
}
