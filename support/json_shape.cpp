#include "support/json_shape.h"

namespace candor::support {
namespace {

const char* kind(const nlohmann::json& j) {
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_object()) return "an object";
  if (j.is_array()) return "an array";
  return "null";
}

std::string at(const std::string& path) { return path.empty() ? "the document" : path; }

}  // namespace

std::string shape_problem(const nlohmann::json& got, const nlohmann::json& model, const std::string& path) {
  if (model.is_null()) return "";  // an optional value: anything goes
  if (std::string(kind(got)) != kind(model))
    return at(path) + ": expected " + kind(model) + ", got " + kind(got) + (got.is_primitive() ? " (" + got.dump() + ")" : "");
  if (got.is_object()) {
    for (const auto& [key, value] : got.items()) {
      auto expected = model.find(key);
      if (expected == model.end()) continue;
      std::string problem = shape_problem(value, *expected, path.empty() ? key : path + "." + key);
      if (!problem.empty()) return problem;
    }
  } else if (got.is_array() && !model.empty()) {
    for (size_t i = 0; i < got.size(); ++i) {
      std::string problem = shape_problem(got[i], model[0], path + "[" + std::to_string(i) + "]");
      if (!problem.empty()) return problem;
    }
  }
  return "";
}

}  // namespace candor::support
