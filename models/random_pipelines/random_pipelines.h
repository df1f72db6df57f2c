// Random Halide pipelines for training and testing the learned cost model (Adams et al. 2019,
// §5: random pipelines built from a vocabulary of real image-processing patterns).
//
// A pipeline is a DAG of 2-D Funcs (plus 1-D helpers: row sums, histograms, lookup tables)
// over square images, grown one pattern at a time from the seed alone: the same seed and
// options give the same pipeline, the same Func names and the same input data, on every
// call of App::build and in every process. Values live at a resolution level (0: the
// output's size; each level halves both dimensions); the output is always at level 0.
// Inputs are 2-D images (uint8, uint16 or float32) with estimates, bound to deterministic
// buffers and read through a clamped boundary; every output has estimates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "halide_bridge/app.h"

namespace candor::models::random_pipelines {

// The vocabulary. Stages per use in parentheses.
enum class Pattern {
  Pointwise = 0,  // (1) one operand: affine, threshold, sqrt, absolute difference, casts
  Combine,        // (1) two operands at one level: blend, average, max, absolute difference;
                  //     with itself, transposed
  Stencil3x3,     // (1) weighted 3x3 window, widened arithmetic
  Stencil5x5,     // (1) weighted 5x5 window
  Separable,      // (2) horizontal then vertical 1-D filter of radius 1-3
  Downsample,     // (1) 2x2 average, one level coarser
  Upsample,       // (1) nearest or linear, one level finer (or back to level 0 at the end)
  Reduction,      // (2) a row or column sum / maximum over an RDom, then a normalization
  Histogram,      // (2) a 256-bin histogram (data-dependent update), then a gather of it
  Scan,           // (1) a recursive filter along x or y (an update over an RDom, serial)
  Convolution,    // (1) 3x3 convolution by a constant weight buffer, as an RDom update
  MatMul,         // (1) a matrix product of two values (an RDom update over k)
  Lut,            // (2) a 256-entry lookup table, then a data-dependent gather of it
  Count
};
const char* pattern_name(Pattern p);
std::vector<Pattern> all_patterns();

struct RandomPipelineOptions {
  int min_stages = 2;   // Funcs defined by the patterns (inputs' boundary wrappers not counted)
  int max_stages = 30;
  int size = 128;       // the output is size x size (a power of two keeps levels exact)
  int max_inputs = 2;   // 1..max_inputs input images
  int max_level = 2;    // coarsest resolution level (size >> max_level)
  std::vector<Pattern> patterns;  // allowed patterns; empty: all of them
};

// What a seed generates, without building any Halide object's schedule.
struct RandomPipelineInfo {
  uint64_t seed = 0;
  std::string name;  // "random_<seed>", or "random_<seed>_<size>" at a size other than the default
  struct Stage {
    std::string func;  // the Func's name (a key of AppInstance::funcs)
    Pattern pattern;
    std::string type;  // "uint8", "uint16", "float32", "int32"
    int level = 0;
  };
  std::vector<Stage> stages;  // definition order (producers first)
  std::vector<std::string> input_types;
};

RandomPipelineInfo random_pipeline_info(uint64_t seed, const RandomPipelineOptions& options = {});

// The pipeline as an app: each build() gives a fresh, unscheduled instance. Its
// apply_expert_schedule computes every Func at the root (there is no expert here).
halide_bridge::App random_pipeline(uint64_t seed, const RandomPipelineOptions& options = {});

}  // namespace candor::models::random_pipelines
