// The machine descriptions recorded in tests/machines (one per machine class), for tests of
// model logic: their results follow the recorded file, not this host's calibration, and the
// same class of host always reads the same file.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

#include <Halide.h>

#include "halide_bridge/compile.h"
#include "halide_bridge/cpu_features.h"
#include "models/halide/machine.h"

#ifndef CANDOR_TEST_MACHINES_DIR
#error "CANDOR_TEST_MACHINES_DIR must name tests/machines"
#endif

namespace candor::testing {

// Every recorded description, by file stem (zen4_epyc, xeon_sapphirerapids, ...).
inline std::map<std::string, models::halide::MachineDescription> recorded_machines() {
  std::map<std::string, models::halide::MachineDescription> all;
  for (const auto& entry : std::filesystem::directory_iterator(CANDOR_TEST_MACHINES_DIR))
    if (entry.path().extension() == ".json")
      all.emplace(entry.path().stem().string(), models::halide::load_machine(entry.path().string()));
  if (all.empty()) throw std::runtime_error("no machine descriptions in " CANDOR_TEST_MACHINES_DIR);
  return all;
}

// $CANDOR_MACHINE when set; else the recorded description of this host's class: the one
// whose Halide target has this host's instruction sets, else one with its float vector width.
inline const models::halide::MachineDescription& recorded_machine_for_host() {
  static const models::halide::MachineDescription m = [] {
    if (const char* env = std::getenv("CANDOR_MACHINE"); env && *env) return models::halide::load_machine(env);
    const Halide::Target host = halide_bridge::host_target();
    const auto all = recorded_machines();
    auto same_isa = [&](const Halide::Target& t) {
      for (const halide_bridge::X86FeatureRequirement& isa : halide_bridge::x86_feature_requirements())
        if (t.has_feature(isa.feature) != host.has_feature(isa.feature)) return false;
      return true;
    };
    for (const auto& [name, machine] : all)
      if (same_isa(Halide::Target(machine.halide_target))) return machine;
    for (const auto& [name, machine] : all)
      if (machine.lanes_f32 == host.natural_vector_size(Halide::Float(32))) return machine;
    return all.begin()->second;
  }();
  return m;
}

}  // namespace candor::testing
