// Reading schedules from JSON, strictly: every value has the type and range it must have,
// unknown keys are refused (a misspelt key would otherwise be ignored), and each error names
// the value's JSON path, e.g. "funcs.blur.stages[0].splits[1].factor: ...".
#include <limits>

#include "schedule.h"

namespace candor::halide_bridge {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw BridgeError((path.empty() ? std::string("schedule") : path) + ": " + what);
}

std::string member(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string element(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

void expect_object(const json& j, const std::string& path, std::initializer_list<const char*> keys) {
  if (!j.is_object()) bad(path, "expected an object, got " + std::string(j.type_name()));
  for (const auto& [key, value] : j.items()) {
    (void)value;
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) {
      std::string list;
      for (const char* k : keys) list += std::string(list.empty() ? "" : ", ") + k;
      bad(member(path, key), "unknown key (expected " + list + ")");
    }
  }
}

const json& required(const json& j, const std::string& path, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) bad(member(path, key), "missing");
  return *it;
}

std::string text_at(const json& j, const std::string& path) {
  if (!j.is_string()) bad(path, "expected a string, got " + std::string(j.type_name()));
  std::string s = j.get<std::string>();
  if (s.empty()) bad(path, "expected a name, got an empty string");
  return s;
}

// An integer in [min, max]: a JSON integer, not 3.5 taken as 3 nor 2^40 narrowed to 0.
int integer_at(const json& j, const std::string& path, int64_t min, int64_t max) {
  if (!j.is_number_integer()) bad(path, "expected an integer, got " + j.dump());
  const bool fits = j.is_number_unsigned() ? j.get<uint64_t>() <= static_cast<uint64_t>(max)
                                           : j.get<int64_t>() >= min && j.get<int64_t>() <= max;
  if (!fits || j.get<int64_t>() < min)
    bad(path, "expected an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", got " + j.dump());
  return static_cast<int>(j.get<int64_t>());
}

template <typename F>
void for_each_element(const json& j, const std::string& path, F&& f) {
  if (!j.is_array()) bad(path, "expected an array, got " + std::string(j.type_name()));
  for (size_t i = 0; i < j.size(); ++i) f(j[i], element(path, i));
}

template <typename E>
E enum_at(const json& j, const std::string& path, E (*from_string)(const std::string&)) {
  try {
    return from_string(text_at(j, path));
  } catch (const BridgeError& e) {
    bad(path, e.what());
  }
}

Split read_split(const json& j, const std::string& path) {
  expect_object(j, path, {"var", "outer", "inner", "factor", "tail"});
  Split s;
  s.var = text_at(required(j, path, "var"), member(path, "var"));
  s.outer = text_at(required(j, path, "outer"), member(path, "outer"));
  s.inner = text_at(required(j, path, "inner"), member(path, "inner"));
  s.factor = integer_at(required(j, path, "factor"), member(path, "factor"), 1, std::numeric_limits<int>::max());
  if (j.contains("tail")) s.tail = enum_at(j["tail"], member(path, "tail"), tail_strategy_from_string);
  return s;
}

StageSchedule read_stage(const json& j, const std::string& path) {
  expect_object(j, path, {"splits", "order", "annotations"});
  StageSchedule s;
  if (j.contains("splits"))
    for_each_element(j["splits"], member(path, "splits"),
                     [&](const json& e, const std::string& p) { s.splits.push_back(read_split(e, p)); });
  if (j.contains("order"))
    for_each_element(j["order"], member(path, "order"),
                     [&](const json& e, const std::string& p) { s.order.push_back(text_at(e, p)); });
  if (j.contains("annotations")) {
    const std::string at = member(path, "annotations");
    if (!j["annotations"].is_object()) bad(at, "expected an object of loop: annotation");
    for (const auto& [var, a] : j["annotations"].items())
      s.annotations[var] = enum_at(a, member(at, var), loop_annotation_from_string);
  }
  return s;
}

Location read_location(const json& j, const std::string& path) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "inline") return Location::inlined();
    if (s == "root") return Location::root();
    bad(path, "unknown location '" + s + "' (expected inline, root or {func, stage, var})");
  }
  expect_object(j, path, {"func", "stage", "var"});
  const int stage = j.contains("stage") ? integer_at(j["stage"], member(path, "stage"), 0, 1 << 20) : 0;
  return Location::at(text_at(required(j, path, "func"), member(path, "func")), stage,
                      text_at(required(j, path, "var"), member(path, "var")));
}

FuncSchedule read_func(const json& j, const std::string& path) {
  expect_object(j, path, {"compute", "store", "memory", "stages"});
  FuncSchedule f;
  f.compute = read_location(required(j, path, "compute"), member(path, "compute"));
  if (j.contains("store") && !j["store"].is_null()) f.store = read_location(j["store"], member(path, "store"));
  if (j.contains("memory")) f.memory = enum_at(j["memory"], member(path, "memory"), memory_type_from_string);
  if (j.contains("stages"))
    for_each_element(j["stages"], member(path, "stages"),
                     [&](const json& e, const std::string& p) { f.stages.push_back(read_stage(e, p)); });
  return f;
}

}  // namespace

void from_json(const json& j, Split& s) { s = read_split(j, ""); }
void from_json(const json& j, StageSchedule& s) { s = read_stage(j, ""); }
void from_json(const json& j, Location& l) { l = read_location(j, ""); }
void from_json(const json& j, FuncSchedule& f) { f = read_func(j, ""); }

void from_json(const json& j, Schedule& s) {
  expect_object(j, "", {"funcs"});
  const json& funcs = required(j, "", "funcs");
  if (!funcs.is_object()) bad("funcs", "expected an object of Func: schedule");
  s.funcs.clear();
  for (const auto& [name, f] : funcs.items()) s.funcs[name] = read_func(f, member("funcs", name));
}

}  // namespace candor::halide_bridge
