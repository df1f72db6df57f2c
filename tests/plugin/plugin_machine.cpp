// plugin_machine PATH TARGET_FILE: makes sure PATH holds a usable machine description
// (calibrating the machine when it does not), so that the Candor generator runs of the build
// share one description instead of each calibrating (and racing to write it); writes the
// host's target string to TARGET_FILE for the generators' `target=`, without the features
// this CPU lacks (halide_bridge::runnable_here: `target=host` dies of SIGILL on AMD Zen 4).
#include <exception>
#include <fstream>
#include <iostream>

#include "halide_bridge/compile.h"
#include "models/halide/machine.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: plugin_machine PATH TARGET_FILE\n";
    return 1;
  }
  try {
    candor::models::halide::load_or_calibrate(argv[1]);
    std::ofstream(argv[2]) << candor::halide_bridge::aot_host_target().to_string();
  } catch (const std::exception& e) {
    std::cerr << "plugin_machine: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
