// Random DNN-layer pipelines: the channel-shaped half of the learned cost model's training
// data. The image generator (random_pipelines.h) makes 2-D Funcs only, so the model never saw
// a reduction over channels; convolution layers (conv_relu, depthwise_separable_conv) were
// where it ordered schedules worst. Here every value is a float32 tensor (c, x, y), channel
// innermost as in the apps, grown one layer at a time from the seed alone: the same seed and
// options give the same pipeline, Func names, weights and input on every build, in every
// process. Values live at a resolution level (0: the input's size; each level halves x and y);
// the output is the last layer's value, at whatever level and channel count it has.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "halide_bridge/app.h"

namespace candor::models::random_pipelines {

// The vocabulary. Stages per use in parentheses.
enum class Layer {
  Conv3x3 = 0,   // (2) zero padding, then a dense 3x3 convolution over all input channels
                 //     (an RDom of 3 x 3 x C_in) plus bias; 8-64 output channels
  Depthwise3x3,  // (2) zero padding, then a 3x3 convolution per channel plus bias
  Pointwise1x1,  // (1) a 1x1 convolution: a matrix product over channels plus bias
  Activation,    // (1) ReLU, ReLU6, leaky ReLU, or a per-channel affine (batch norm)
  Pool,          // (1) 2x2 max or average pooling, one level coarser
  Upsample,      // (1) nearest-neighbour 2x upsampling, one level finer
  Residual,      // (1) the sum of two values of the same shape
  ChannelNorm,   // (2) the L2 norm over channels per pixel, then the division by it
  GlobalScale,   // (2) squeeze-excite: the mean of each channel over the image, then a
                 //     sigmoid gate of every pixel by it
  Count
};
const char* layer_name(Layer l);
std::vector<Layer> all_layers();

struct LayerPipelineOptions {
  int min_layers = 2;  // uses of the vocabulary (a use defines 1 or 2 Funcs)
  int max_layers = 10;
  int size = 64;       // the input is size x size pixels (a power of two keeps levels exact)
  int max_level = 2;   // coarsest resolution level (size >> max_level)
  std::vector<Layer> layers;  // allowed layers; empty: all of them
};

// What a seed generates, without scheduling anything.
struct LayerPipelineInfo {
  uint64_t seed = 0;
  std::string name;  // "layers_<seed>", or "layers_<seed>_<size>" at a size other than the default
  struct Stage {
    std::string func;  // the Func's name (a key of AppInstance::funcs)
    Layer layer;
    int channels = 0;
    int level = 0;
  };
  std::vector<Stage> stages;  // definition order (producers first)
  int input_channels = 0;
  std::vector<int> output_size;  // {channels, width, height}
};

LayerPipelineInfo layer_pipeline_info(uint64_t seed, const LayerPipelineOptions& options = {});

// The pipeline as an app: each build() gives a fresh, unscheduled instance whose inputs are
// the image and every layer's weights, bound to deterministic buffers with estimates. Its
// apply_expert_schedule computes every Func at the root (there is no expert here).
halide_bridge::App layer_pipeline(uint64_t seed, const LayerPipelineOptions& options = {});

}  // namespace candor::models::random_pipelines
