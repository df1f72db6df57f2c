// `candor target`: the Halide target string of this machine, for a generator's `target=`.
// Halide 14's `target=host` names features some CPUs lack (Sapphire Rapids on AMD Zen 4 and
// Zen 5, whose code uses AVX512-FP16), and its code then dies of SIGILL; this one holds the
// x86 features this CPU runs (halide_bridge::aot_host_target, cpu_features.h).
#include <cstdio>

#include "commands.h"
#include "halide_bridge/compile.h"

namespace candor::cli {

void register_target_command(CLI::App& app, int& exit_status) {
  CLI::App* cmd = app.add_subcommand("target", "Print this machine's Halide target (use it for a generator's target=)");
  cmd->callback([&exit_status] {
    std::printf("%s\n", halide_bridge::aot_host_target().to_string().c_str());
    exit_status = 0;
  });
}

}  // namespace candor::cli
