// Schedules an example app or a random pipeline through the Candor plugin, as a generator
// would (Pipeline::auto_schedule with build/lib/libautoschedule_candor.so loaded, the CANDOR_*
// knobs read from the environment), then runs the pipeline under the schedule the plugin
// applied and compares its output with the reference schedule's.
//
//   build/bin/plugin_on_app APP|random:SEED|layers:SEED [--target T]
//
// Exit status 0 when the applied schedule matches the reference; 1 when it does not or the
// plugin failed (its message is printed); 2 for bad arguments.
#include <iostream>
#include <string>

#include <Halide.h>

#include "halide_bridge/compile.h"
#include "halide_bridge/error.h"
#include "pipelines.h"

int main(int argc, char** argv) {
  namespace hb = candor::halide_bridge;
  std::string spec, target_name;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--target" && i + 1 < argc) target_name = argv[++i];
    else if (spec.empty() && a.rfind("--", 0) != 0) spec = a;
    else {
      std::cerr << "usage: plugin_on_app APP|random:SEED|layers:SEED [--target T]\n";
      return 2;
    }
  }
  const auto app = candor::collect::find_pipeline(spec);
  if (!app) {
    std::cerr << "plugin_on_app: error: unknown app '" << spec << "' (see `candor apps`, or random:SEED, layers:SEED)\n";
    return 2;
  }
  const Halide::Target target = target_name.empty() ? hb::host_target() : Halide::Target(target_name);
  try {
    const hb::Outputs reference = hb::reference_outputs(*app, target);
    Halide::load_plugin(CANDOR_PLUGIN);
    hb::AppInstance inst = app->build();
    // The plugin's own tolerance: integers computed through floats within 1.
    const hb::Tolerance tolerance = hb::tolerance_for(hb::describe_app(inst, target));
    inst.pipeline().auto_schedule("Candor", target, Halide::MachineParams::generic());
    const hb::Comparison c = hb::compare_outputs(hb::realize(inst, target), reference, tolerance);
    if (!c.ok) {
      std::cout << spec << ": the schedule the plugin applied differs from the reference: " << c.message << "\n";
      return 1;
    }
    std::cout << spec << ": the schedule the plugin applied matches the reference (max error " << c.max_abs_error
              << ")\n";
    return 0;
  } catch (const Halide::Error& e) {
    std::cout << spec << ": " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cout << spec << ": " << e.what() << "\n";
  }
  return 1;
}
