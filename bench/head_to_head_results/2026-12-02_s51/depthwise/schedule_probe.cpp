// An app with a candor schedule (the first JSON line of a file), compiled two ways:
//   schedule_probe asm APP SCHEDULE.jsonl OUT.s   assembly (OUT.s) and lowered Halide IR (OUT.s.stmt)
//   schedule_probe prof APP SCHEDULE.jsonl RUNS   RUNS runs under Halide's profiler; with
//       HL_NUM_THREADS=1 it reports after every run: count the (100%) lines per Func.
// Build from the repository root, after scripts/setup.sh:
//   g++ -std=c++17 -O1 -I. -Ibuild -I/usr/include/halide14 schedule_probe.cpp -o schedule_probe \
//     -Wl,--whole-archive build/examples/apps/libcandor_apps.a -Wl,--no-whole-archive \
//     build/halide_bridge/libcandor_halide_bridge.a -lHalide14 -lfmt -lpthread -ldl
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "examples/apps/apps.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/kernel_description.h"
#include "halide_bridge/schedule.h"

namespace hb = candor::halide_bridge;

int main(int argc, char** argv) {
  if (argc != 5) return 2;
  const std::string mode = argv[1];
  const hb::App* app = candor::apps::find_app(argv[2]);
  std::ifstream in(argv[3]);
  std::string line;
  if (!app || !std::getline(in, line)) return 2;
  const hb::Schedule schedule = nlohmann::json::parse(line).get<hb::Schedule>();
  Halide::Target target = mode == "asm" ? hb::aot_host_target() : hb::host_target();
  const hb::KernelDescription kd = hb::describe_app(app->build(), target);
  hb::AppInstance inst;
  std::string step, error;
  if (!hb::scheduled_instance(*app, schedule, kd, target, inst, step, error)) {
    std::cerr << step << ": " << error << "\n";
    return 1;
  }
  Halide::Pipeline p(inst.outputs);
  if (mode == "asm") {
    p.compile_to_assembly(argv[4], p.infer_arguments(), "f", target);
    p.compile_to_lowered_stmt(std::string(argv[4]) + ".stmt", p.infer_arguments(), Halide::Text, target);
    return 0;
  }
  target = target.with_feature(Halide::Target::Profile);
  p.compile_jit(target);
  Halide::Buffer<float> out(inst.output_sizes.at(0));
  for (int i = 0; i < std::stoi(argv[4]); ++i) p.realize(out, target);
}
