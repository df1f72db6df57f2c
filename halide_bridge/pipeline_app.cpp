#include "pipeline_app.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "compile.h"
#include "directives.h"
#include "error.h"

namespace candor::halide_bridge {
namespace {

namespace HI = Halide::Internal;

// splitmix64: the same data on every platform.
uint64_t next_random(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Floats in [0, 1) on a grid of 1/256 (thresholds computed from them do not sit within
// rounding error of a boundary); integers in [0, 255] or the type's range if smaller, so
// that sums and products stay far from overflow as in natural images.
template <typename T>
void fill(Halide::Buffer<>& b, uint64_t& state) {
  T* data = static_cast<T*>(b.data());
  for (size_t i = 0, n = b.number_of_elements(); i < n; ++i) {
    const uint64_t r = next_random(state) >> 32;
    if constexpr (std::is_floating_point_v<T>) {
      data[i] = static_cast<T>(r % 256) / T(256);
    } else if constexpr (std::is_same_v<T, bool>) {
      data[i] = (r & 1) != 0;
    } else {
      const uint64_t top = std::min<uint64_t>(255, uint64_t(std::numeric_limits<T>::max()));
      data[i] = static_cast<T>(r % (top + 1));
    }
  }
}

Halide::Buffer<> synthetic_input(const InputInfo& in, const std::vector<Range>& shape, uint64_t seed) {
  std::vector<int> sizes, mins;
  for (const Range& r : shape) {
    sizes.push_back(int(std::max<int64_t>(1, r.extent())));
    mins.push_back(int(r.min));
  }
  Halide::Buffer<> b(in.type, sizes);
  b.set_min(mins);
  const Halide::Type t = in.type;
  if (t.is_float() && t.bits() == 32) fill<float>(b, seed);
  else if (t.is_float() && t.bits() == 64) fill<double>(b, seed);
  else if (t.is_bool()) fill<bool>(b, seed);
  else if (t.is_uint() && t.bits() == 8) fill<uint8_t>(b, seed);
  else if (t.is_uint() && t.bits() == 16) fill<uint16_t>(b, seed);
  else if (t.is_uint() && t.bits() == 32) fill<uint32_t>(b, seed);
  else if (t.is_uint() && t.bits() == 64) fill<uint64_t>(b, seed);
  else if (t.is_int() && t.bits() == 8) fill<int8_t>(b, seed);
  else if (t.is_int() && t.bits() == 16) fill<int16_t>(b, seed);
  else if (t.is_int() && t.bits() == 32) fill<int32_t>(b, seed);
  else if (t.is_int() && t.bits() == 64) fill<int64_t>(b, seed);
  else throw BridgeError("input '" + in.name + "' has a type synthetic data cannot fill");
  return b;
}

// The scalar's estimate as its current value.
void set_to_estimate(HI::Parameter& p) {
  const Halide::Expr e = HI::simplify(Halide::cast(p.type(), p.estimate()));
  halide_scalar_value_t v{};
  const Halide::Type t = p.type();
  if (const double* f = HI::as_const_float(e)) {
    if (t.bits() == 64) v.u.f64 = *f;
    else v.u.f32 = float(*f);
  } else if (const int64_t* i = HI::as_const_int(e)) {
    if (t.bits() == 8) v.u.i8 = int8_t(*i);
    else if (t.bits() == 16) v.u.i16 = int16_t(*i);
    else if (t.bits() == 32) v.u.i32 = int32_t(*i);
    else v.u.i64 = *i;
  } else if (const uint64_t* u = HI::as_const_uint(e)) {
    if (t.bits() == 1) v.u.b = *u != 0;
    else if (t.bits() == 8) v.u.u8 = uint8_t(*u);
    else if (t.bits() == 16) v.u.u16 = uint16_t(*u);
    else if (t.bits() == 32) v.u.u32 = uint32_t(*u);
    else v.u.u64 = *u;
  } else {
    throw BridgeError("scalar parameter '" + p.name() + "' has an estimate that is not a constant");
  }
  p.set_scalar(t, v);
}

// A fresh copy of the pipeline's outputs, its Funcs deep-copied (sharing the Parameters).
std::vector<Halide::Func> copied_outputs(const std::vector<HI::Function>& originals) {
  const auto copied = HI::deep_copy(originals, HI::build_environment(originals));
  std::vector<Halide::Func> outputs;
  for (const HI::Function& f : copied.first) outputs.emplace_back(f);
  return outputs;
}

// The region of each input that Halide's bounds inference requires for the outputs over
// their estimates under the reference schedule (a bounds query: data-dependent reads are
// bounded as Halide bounds them, by the clamp or the index's type), united with the region
// the description assumes (what candor's own analysis reads, or the estimate), so that
// neither the reference nor a schedule reads outside the synthetic data.
// At each of several output sizes, with one compile of the query; a size whose query fails
// gets no shapes and its error in `errors` (which, when null, the first failure is thrown as).
std::vector<InputShapes> query_shapes(const std::vector<HI::Function>& originals, const KernelDescription& kd,
                                      const std::vector<OutputSizes>& sizes_list,
                                      const std::vector<std::vector<int>>& mins, std::vector<std::string>* errors) {
  AppInstance inst;
  inst.outputs = copied_outputs(originals);
  apply_schedule(reference_schedule(kd), kd, inst.outputs);
  PipelineParameters params = pipeline_parameters(inst.outputs);
  for (auto& [name, p] : params.scalars) set_to_estimate(p);
  Halide::Pipeline pipeline(inst.outputs);
  std::vector<InputShapes> all;
  if (errors) errors->assign(sizes_list.size(), "");
  for (size_t k = 0; k < sizes_list.size(); ++k) {
    const OutputSizes& sizes = sizes_list[k];
    for (auto& [name, p] : params.buffers) p.set_buffer(Halide::Buffer<>());
    std::vector<Halide::Buffer<>> outs;
    for (size_t i = 0; i < inst.outputs.size(); ++i)
      for (const Halide::Type& t : inst.outputs[i].output_types()) {
        outs.emplace_back(t, nullptr, sizes.at(i));  // a shape without memory: only queried
        outs.back().set_min(mins[i]);
      }
    try {
      pipeline.infer_input_bounds(Halide::Realization(outs), host_target());
    } catch (const Halide::Error& e) {
      const std::string error = std::string("Halide's bounds query of the reference schedule failed: ") + e.what();
      if (!errors) throw BridgeError(error);
      (*errors)[k] = error;
      all.emplace_back();
      continue;
    }
    InputShapes shapes;
    for (auto& [name, p] : params.buffers) {
      const InputInfo* in = kd.find_input(name);
      if (!in) throw BridgeError("input '" + name + "' is not in the kernel description");
      std::vector<Range> shape = in->shape();
      const Halide::Buffer<> queried = p.buffer();
      for (int d = 0; queried.defined() && d < queried.dimensions() && d < int(shape.size()); ++d) {
        shape[d].min = std::min<int64_t>(shape[d].min, queried.dim(d).min());
        shape[d].max = std::max<int64_t>(shape[d].max, queried.dim(d).max());
      }
      p.set_buffer(Halide::Buffer<>());
      shapes[name] = shape;
    }
    all.push_back(std::move(shapes));
  }
  return all;
}

// The pipeline's output Functions, and each one's size and min over its estimate (the
// region bounds inference gave it).
struct OutputRegions {
  std::vector<HI::Function> functions;
  std::vector<std::vector<int>> sizes, mins;
};

OutputRegions output_regions(const Halide::Pipeline& pipeline, const KernelDescription& kd) {
  OutputRegions out;
  for (const Halide::Func& f : pipeline.outputs()) out.functions.push_back(f.function());
  std::map<std::string, std::string> canonical_of;  // Halide name -> canonical
  for (const auto& [name, f] : pipeline_funcs(pipeline.outputs())) canonical_of[f.name()] = name;
  for (const HI::Function& f : out.functions) {
    std::vector<int> size, min;
    for (const Range& r : kd.func(canonical_of.at(f.name())).region) {
      size.push_back(int(r.extent()));
      min.push_back(int(r.min));
    }
    out.sizes.push_back(size);
    out.mins.push_back(min);
  }
  return out;
}

// Binds the instance's inputs to synthetic data over `shapes` and its outputs to `sizes`.
void bind_inputs_and_outputs(AppInstance& inst, const KernelDescription& kd, const InputShapes& shapes,
                             const OutputSizes& sizes, uint64_t seed) {
  inst.output_sizes = sizes;
  PipelineParameters params = pipeline_parameters(inst.outputs);
  uint64_t input_seed = seed;
  for (auto& [name, p] : params.buffers) {
    const InputInfo* in = kd.find_input(name);
    auto shape = shapes.find(name);
    if (!in || shape == shapes.end()) throw BridgeError("input '" + name + "' is not in the kernel description");
    p.set_buffer(synthetic_input(*in, shape->second, input_seed++));
  }
  for (auto& [name, p] : params.scalars) set_to_estimate(p);
}

}  // namespace

OutputSizes estimated_output_sizes(const Halide::Pipeline& pipeline, const KernelDescription& kd) {
  return output_regions(pipeline, kd).sizes;
}

std::vector<OutputSizes> other_output_sizes(const OutputSizes& estimated) {
  constexpr int kLong = 8;
  bool any_long = false;
  for (const std::vector<int>& size : estimated)
    for (int extent : size) any_long = any_long || extent >= kLong;
  if (!any_long) return {};
  std::vector<OutputSizes> others;
  for (auto resized : {+[](int e) { return e * 3 / 4 + 1; }, +[](int e) { return e + 13; }}) {
    OutputSizes other = estimated;
    for (std::vector<int>& size : other)
      for (int& extent : size)
        if (extent >= kLong) extent = resized(extent);
    others.push_back(other);
  }
  return others;
}

InputShapes queried_input_shapes(const Halide::Pipeline& pipeline, const KernelDescription& kd) {
  const OutputRegions out = output_regions(pipeline, kd);
  return query_shapes(out.functions, kd, {out.sizes}, out.mins, nullptr).front();
}

std::vector<InputShapes> queried_input_shapes(const Halide::Pipeline& pipeline, const KernelDescription& kd,
                                              const std::vector<OutputSizes>& sizes, std::vector<std::string>& errors) {
  const OutputRegions out = output_regions(pipeline, kd);
  return query_shapes(out.functions, kd, sizes, out.mins, &errors);
}

App pipeline_app(const Halide::Pipeline& pipeline, const KernelDescription& kd, const InputShapes& given,
                 uint64_t seed, const OutputSizes& sizes) {
  OutputRegions out = output_regions(pipeline, kd);
  if (!sizes.empty()) {
    if (sizes.size() != out.sizes.size()) throw BridgeError("pipeline_app: a size for each output is needed");
    out.sizes = sizes;
  }
  App app;
  app.name = "pipeline";
  app.description = "a pipeline on synthetic inputs over its estimates";
  // Without given shapes, queried once per process by the first build (the query compiles).
  auto shapes = std::make_shared<std::optional<InputShapes>>();
  if (!given.empty() || kd.inputs.empty()) *shapes = given;
  app.build = [originals = out.functions, kd, sizes = out.sizes, mins = out.mins, seed, shapes]() {
    if (!*shapes) *shapes = query_shapes(originals, kd, {sizes}, mins, nullptr).front();
    AppInstance inst;
    inst.outputs = copied_outputs(originals);
    inst.funcs = pipeline_funcs(inst.outputs);
    inst.output_mins = mins;
    bind_inputs_and_outputs(inst, kd, **shapes, sizes, seed);
    return inst;
  };
  return app;
}

AppInstance pipeline_instance(const Halide::Pipeline& pipeline, const KernelDescription& kd,
                              const InputShapes& given, uint64_t seed) {
  const OutputRegions out = output_regions(pipeline, kd);
  const InputShapes shapes =
      given.empty() && !kd.inputs.empty() ? query_shapes(out.functions, kd, {out.sizes}, out.mins, nullptr).front() : given;
  AppInstance inst;
  inst.outputs = pipeline.outputs();
  inst.funcs = pipeline_funcs(inst.outputs);
  inst.output_mins = out.mins;
  bind_inputs_and_outputs(inst, kd, shapes, out.sizes, seed);
  return inst;
}

void resize_instance(AppInstance& inst, const KernelDescription& kd, const InputShapes& shapes,
                     const OutputSizes& sizes, uint64_t seed) {
  if (sizes.size() != inst.outputs.size()) throw BridgeError("resize_instance: a size for each output is needed");
  bind_inputs_and_outputs(inst, kd, shapes, sizes, seed);
}

}  // namespace candor::halide_bridge
