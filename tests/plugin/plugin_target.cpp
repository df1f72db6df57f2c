// plugin_target TARGET_FILE: writes this host's Halide target string to TARGET_FILE for the
// build's generator runs (`target=`), with only the features this CPU has
// (halide_bridge::aot_host_target; Halide 14's `target=host` names AVX512-FP16 on AMD Zen 4).
#include <exception>
#include <fstream>
#include <iostream>

#include "halide_bridge/compile.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: plugin_target TARGET_FILE\n";
    return 1;
  }
  try {
    std::ofstream out(argv[1]);
    out << candor::halide_bridge::aot_host_target().to_string();
    if (!out) throw std::runtime_error(std::string("cannot write ") + argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "plugin_target: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
