// The sizes the plugin test pipelines are generated for (their estimates) and run at.
#pragma once

namespace candor::plugin_test {

constexpr int kImageWidth = 512, kImageHeight = 384;  // box_blur, unsharp_mask, harris
constexpr int kMatrixSize = 256;                      // matmul
constexpr int kConvChannelsIn = 16, kConvChannelsOut = 16, kConvWidth = 32, kConvHeight = 32, kConvBatch = 2;

}  // namespace candor::plugin_test
