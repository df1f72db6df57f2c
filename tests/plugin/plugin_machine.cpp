// plugin_machine PATH: makes sure PATH holds a usable machine description (calibrating the
// machine when it does not), so that the Candor generator runs of the build share one
// description instead of each calibrating (and racing to write it).
#include <exception>
#include <iostream>

#include "models/halide/machine.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: plugin_machine PATH\n";
    return 1;
  }
  try {
    candor::models::halide::load_or_calibrate(argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "plugin_machine: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
