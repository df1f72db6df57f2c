#include "pipelines.h"

#include "apps.h"
#include "random_pipelines.h"

namespace candor::collect {

namespace {
constexpr const char* kRandomPrefix = "random:";

std::optional<uint64_t> parse_decimal(const std::string& digits) {
  if (digits.empty() || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoull(digits);
}
}  // namespace

std::string random_pipeline_spec(uint64_t seed, int size) {
  std::string spec = kRandomPrefix + std::to_string(seed);
  if (size != RandomPipelineSpec{}.size) spec += "@" + std::to_string(size);
  return spec;
}

std::optional<RandomPipelineSpec> parse_random_pipeline_spec(const std::string& spec) {
  const std::string prefix = kRandomPrefix;
  if (spec.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const std::string rest = spec.substr(prefix.size());
  const size_t at = rest.find('@');
  RandomPipelineSpec out;
  const std::optional<uint64_t> seed = parse_decimal(rest.substr(0, at));
  if (!seed) return std::nullopt;
  out.seed = *seed;
  if (at != std::string::npos) {
    const std::optional<uint64_t> size = parse_decimal(rest.substr(at + 1));
    // Powers of two keep every resolution level's size exact.
    if (!size || *size < 16 || *size > 4096 || (*size & (*size - 1)) != 0) return std::nullopt;
    out.size = static_cast<int>(*size);
  }
  return out;
}

std::optional<halide_bridge::App> find_pipeline(const std::string& spec) {
  if (spec.compare(0, std::string(kRandomPrefix).size(), kRandomPrefix) == 0) {
    const std::optional<RandomPipelineSpec> random = parse_random_pipeline_spec(spec);
    if (!random) return std::nullopt;
    models::random_pipelines::RandomPipelineOptions options;
    options.size = random->size;
    return models::random_pipelines::random_pipeline(random->seed, options);
  }
  if (const halide_bridge::App* app = apps::find_app(spec)) return *app;
  return std::nullopt;
}

}  // namespace candor::collect
