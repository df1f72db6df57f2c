#include "generator_app.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>

#include "halide_bridge/compile.h"
#include "halide_bridge/kernel_description.h"
#include "halide_bridge/pipeline_app.h"

namespace candor::corpus {
namespace {

namespace hb = candor::halide_bridge;
namespace HI = Halide::Internal;

// A generator's phases one at a time: GenGen runs generate() and schedule() back to back,
// and the bridge needs the pipeline between them. The phases are protected members of
// GeneratorBase; a derived class may name them (it is never instantiated).
struct GeneratorPhases : HI::GeneratorBase {
  static Halide::Pipeline generate(HI::GeneratorBase& g) {
    (g.*&GeneratorPhases::call_configure)();
    (g.*&GeneratorPhases::call_generate)();
    return g.get_pipeline();
  }
  static void schedule(HI::GeneratorBase& g) { (g.*&GeneratorPhases::call_schedule)(); }
};

}  // namespace

hb::App generator_app(const std::string& generator, const std::string& description) {
  const std::vector<std::string> known = HI::GeneratorRegistry::enumerate();
  if (std::find(known.begin(), known.end(), generator) == known.end())
    throw std::invalid_argument("no generator '" + generator + "' is registered");
  hb::App app;
  app.name = generator;
  app.description = description;
  // The input regions depend on the pipeline's structure only: queried by the first build.
  auto shapes = std::make_shared<std::optional<hb::InputShapes>>();
  app.build = [generator, shapes]() {
    const Halide::Target target = hb::host_target();
    std::shared_ptr<HI::GeneratorBase> gen =
        HI::GeneratorRegistry::create(generator, Halide::GeneratorContext(target, /*auto_schedule=*/false));
    const Halide::Pipeline pipeline = GeneratorPhases::generate(*gen);
    const hb::KernelDescription kd = hb::describe_pipeline(pipeline, target);
    if (!*shapes) *shapes = hb::queried_input_shapes(pipeline, kd);
    hb::AppInstance inst = hb::pipeline_instance(pipeline, kd, **shapes);
    // schedule() once, on this instance's Funcs (the generator owns them).
    inst.apply_expert_schedule = [gen, scheduled = false](const Halide::Target&) mutable {
      if (scheduled) return;
      scheduled = true;
      GeneratorPhases::schedule(*gen);
    };
    return inst;
  };
  return app;
}

}  // namespace candor::corpus
