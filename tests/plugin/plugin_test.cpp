// Runs each test pipeline three ways on the same deterministic inputs and compares outputs:
//   reference_APP  generated without a schedule (auto_schedule=false)
//   candor_APP     generated with the Candor plugin (-p libautoschedule_candor.so -s Candor)
//   printed_APP    generated without the plugin, applying the NAME.schedule.h the Candor
//                  run emitted (the printed schedule_source)
// Candor must match the reference (exactly for integers, within a tolerance for floats) and
// the printed schedule must reproduce the applied one bit for bit, at the estimates and at
// the two other sizes the plugin verifies its picks at.
#include <gtest/gtest.h>

#include <HalideBuffer.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include "candor_box_blur.h"
#include "candor_conv_relu.h"
#include "candor_harris.h"
#include "candor_matmul.h"
#include "candor_unsharp_mask.h"
#include "plugin_sizes.h"
#include "printed_box_blur.h"
#include "printed_conv_relu.h"
#include "printed_harris.h"
#include "printed_matmul.h"
#include "printed_unsharp_mask.h"
#include "reference_box_blur.h"
#include "reference_conv_relu.h"
#include "reference_harris.h"
#include "reference_matmul.h"
#include "reference_unsharp_mask.h"

namespace candor::plugin_test {
namespace {

template <typename T>
using Buffer = Halide::Runtime::Buffer<T>;

// A reproducible value in [0, 1) for element `index` of input `salt`.
double hashed_unit(uint64_t index, uint64_t salt) {
  uint64_t z = index * 0x9E3779B97F4A7C15ull + salt * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

template <typename T>
void fill(Buffer<T>& b, uint64_t salt, double lo, double hi) {
  uint64_t i = 0;
  b.for_each_value([&](T& v) { v = static_cast<T>(lo + (hi - lo) * hashed_unit(i++, salt)); });
}

// Counts mismatching elements, reporting the first few.
template <typename T>
int64_t mismatches(const Buffer<T>& expected, const Buffer<T>& actual, double tolerance, const std::string& what) {
  int64_t bad = 0;
  expected.for_each_element([&](const int* pos) {
    const double e = expected(pos), a = actual(pos);
    const bool ok = tolerance == 0 ? e == a : std::fabs(e - a) <= tolerance * std::max(1.0, std::fabs(e));
    if (!ok && ++bad <= 5) {
      ADD_FAILURE() << what << ": element (" << pos[0] << ", " << pos[1] << ", ...) expected " << e << ", got " << a;
    }
  });
  return bad;
}

// Runs the three versions of one pipeline through `run(version, output)` and compares them.
template <typename T>
void check_versions(const std::vector<int>& shape, double tolerance,
                    const std::function<int(const std::string& version, Buffer<T>& out)>& run) {
  Buffer<T> reference(shape), candor(shape), printed(shape);
  ASSERT_EQ(run("reference", reference), 0);
  ASSERT_EQ(run("candor", candor), 0);
  ASSERT_EQ(run("printed", printed), 0);
  // A constant output would make the comparisons vacuous.
  bool varies = false;
  const T first = reference.begin()[0];
  reference.for_each_value([&](const T& v) { varies = varies || v != first; });
  EXPECT_TRUE(varies) << "the reference output is constant";
  EXPECT_EQ(mismatches(reference, candor, tolerance, "candor vs reference"), 0);
  EXPECT_EQ(mismatches(candor, printed, 0, "printed schedule vs applied schedule"), 0);
}

constexpr double kFloatTolerance = 1e-4;

// The sizes the plugin checks its picks at (halide_bridge/pipeline_app.h, other_output_sizes):
// the estimates, and each extent of at least 8 times 3/4 plus one, and plus 13.
const std::vector<std::function<int(int)>> kSizes = {
    [](int e) { return e; }, [](int e) { return e >= 8 ? e * 3 / 4 + 1 : e; },
    [](int e) { return e >= 8 ? e + 13 : e; }};

TEST(PluginGenerated, BoxBlur) {
  for (const auto& size : kSizes) {
    const int w = size(kImageWidth), h = size(kImageHeight);
    SCOPED_TRACE(testing::Message() << w << "x" << h);
    Buffer<uint16_t> input(w, h);
    fill(input, 1, 0, 65535);
    check_versions<uint16_t>({w, h}, 0, [&](const std::string& v, Buffer<uint16_t>& out) {
      if (v == "reference") return reference_box_blur(input, out);
      if (v == "candor") return candor_box_blur(input, out);
      return printed_box_blur(input, out);
    });
  }
}

TEST(PluginGenerated, UnsharpMask) {
  for (const auto& size : kSizes) {
    const int w = size(kImageWidth), h = size(kImageHeight);
    SCOPED_TRACE(testing::Message() << w << "x" << h);
    Buffer<float> input(w, h, 3);
    fill(input, 2, 0, 1);
    const float strength = 1.5f;
    check_versions<float>({w, h, 3}, kFloatTolerance, [&](const std::string& v, Buffer<float>& out) {
      if (v == "reference") return reference_unsharp_mask(input, strength, out);
      if (v == "candor") return candor_unsharp_mask(input, strength, out);
      return printed_unsharp_mask(input, strength, out);
    });
  }
}

TEST(PluginGenerated, Harris) {
  for (const auto& size : kSizes) {
    const int w = size(kImageWidth), h = size(kImageHeight);
    SCOPED_TRACE(testing::Message() << w << "x" << h);
    Buffer<float> input(w, h, 3);
    fill(input, 3, 0, 1);
    check_versions<float>({w, h}, kFloatTolerance, [&](const std::string& v, Buffer<float>& out) {
      if (v == "reference") return reference_harris(input, out);
      if (v == "candor") return candor_harris(input, out);
      return printed_harris(input, out);
    });
  }
}

TEST(PluginGenerated, Matmul) {
  for (const auto& size : kSizes) {
    const int n = size(kMatrixSize);
    SCOPED_TRACE(testing::Message() << n << "x" << n);
    // The reduction's extent is the generator's constant: a's rows and b's columns keep it.
    Buffer<float> a(kMatrixSize, n), b(n, kMatrixSize);
    fill(a, 4, -1, 1);
    fill(b, 5, -1, 1);
    check_versions<float>({n, n}, kFloatTolerance, [&](const std::string& v, Buffer<float>& out) {
      if (v == "reference") return reference_matmul(a, b, out);
      if (v == "candor") return candor_matmul(a, b, out);
      return printed_matmul(a, b, out);
    });
  }
}

TEST(PluginGenerated, ConvRelu) {
  for (const auto& size : kSizes) {
    // A layer's channel counts are its weights': only the image's size changes.
    const int out_channels = kConvChannelsOut, width = size(kConvWidth), height = size(kConvHeight);
    SCOPED_TRACE(testing::Message() << width << "x" << height);
    // The generator pads its input by a constant outside a fixed 32 x 32: it reads that much.
    Buffer<float> input(kConvChannelsIn, std::max(width, kConvWidth), std::max(height, kConvHeight), kConvBatch);
    Buffer<float> weights(out_channels, 3, 3, kConvChannelsIn), bias(out_channels);
    fill(input, 6, 0, 1);
    fill(weights, 7, -0.2, 0.2);
    fill(bias, 8, -0.5, 0.5);
    check_versions<float>({out_channels, width, height, kConvBatch}, kFloatTolerance,
                          [&](const std::string& v, Buffer<float>& out) {
                            if (v == "reference") return reference_conv_relu(input, weights, bias, out);
                            if (v == "candor") return candor_conv_relu(input, weights, bias, out);
                            return printed_conv_relu(input, weights, bias, out);
                          });
  }
}

}  // namespace
}  // namespace candor::plugin_test
