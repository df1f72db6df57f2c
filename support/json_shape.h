// Checks a JSON document read from a file against the shape of one the program writes, so
// that a value of the wrong type is reported with its path ("cache_bytes.L1d_per_core:
// expected a number, got a string") rather than as a type error without a place.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace candor::support {

// The first place where `got` has a value of another kind (object, array, string, number,
// boolean) than `model` at the same path, e.g. "lanes.float32: expected a number, got a
// string"; "" when none. Keys only one side has are not compared (readers name missing ones).
// An array's elements are compared with the model array's first element.
std::string shape_problem(const nlohmann::json& got, const nlohmann::json& model, const std::string& path = "");

}  // namespace candor::support
