#include "pipelines.h"

#include "apps.h"
#include "corpus.h"
#include "layer_pipelines.h"
#include "random_pipelines.h"

namespace candor::collect {

namespace rp = models::random_pipelines;

namespace {
std::optional<uint64_t> parse_decimal(const std::string& digits) {
  if (digits.empty() || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoull(digits);
}
}  // namespace

const char* family_name(PipelineFamily family) { return family == PipelineFamily::Layers ? "layers" : "random"; }

std::optional<PipelineFamily> parse_family(const std::string& name) {
  for (PipelineFamily f : {PipelineFamily::Image, PipelineFamily::Layers})
    if (name == family_name(f)) return f;
  return std::nullopt;
}

int default_size(PipelineFamily family) {
  return family == PipelineFamily::Layers ? rp::LayerPipelineOptions{}.size : rp::RandomPipelineOptions{}.size;
}

std::string random_pipeline_spec(const RandomPipelineSpec& spec) {
  std::string out = std::string(family_name(spec.family)) + ":" + std::to_string(spec.seed);
  if (spec.size != default_size(spec.family)) out += "@" + std::to_string(spec.size);
  return out;
}

std::optional<RandomPipelineSpec> parse_random_pipeline_spec(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::optional<PipelineFamily> family = parse_family(spec.substr(0, colon));
  if (!family) return std::nullopt;
  const std::string rest = spec.substr(colon + 1);
  const size_t at = rest.find('@');
  RandomPipelineSpec out{0, default_size(*family), *family};
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

std::optional<halide_bridge::App> find_training_pipeline(const std::string& spec) {
  if (const std::optional<RandomPipelineSpec> generated = parse_random_pipeline_spec(spec)) {
    if (generated->family == PipelineFamily::Layers) {
      rp::LayerPipelineOptions options;
      options.size = generated->size;
      return rp::layer_pipeline(generated->seed, options);
    }
    rp::RandomPipelineOptions options;
    options.size = generated->size;
    return rp::random_pipeline(generated->seed, options);
  }
  if (const halide_bridge::App* app = apps::find_app(spec)) return *app;
  return std::nullopt;
}

std::optional<halide_bridge::App> find_pipeline(const std::string& spec) {
  if (std::optional<halide_bridge::App> app = find_training_pipeline(spec)) return app;
  if (const halide_bridge::App* app = corpus::find_app(spec)) return *app;
  return std::nullopt;
}

}  // namespace candor::collect
