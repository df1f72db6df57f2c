#include "pipelines.h"

#include "apps.h"
#include "random_pipelines.h"

namespace candor::collect {

namespace {
constexpr const char* kRandomPrefix = "random:";
}

std::string random_pipeline_spec(uint64_t seed) { return kRandomPrefix + std::to_string(seed); }

std::optional<halide_bridge::App> find_pipeline(const std::string& spec) {
  const std::string prefix = kRandomPrefix;
  if (spec.compare(0, prefix.size(), prefix) == 0) {
    const std::string digits = spec.substr(prefix.size());
    if (digits.empty() || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return models::random_pipelines::random_pipeline(std::stoull(digits));
  }
  if (const halide_bridge::App* app = apps::find_app(spec)) return *app;
  return std::nullopt;
}

}  // namespace candor::collect
