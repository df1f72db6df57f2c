// Runs the blur that candor scheduled and compares it with a plain C++ blur.
#include <HalideBuffer.h>

#include <cmath>
#include <cstdio>

#include "blur.h"

int main() {
  const int width = 1024, height = 768;
  Halide::Runtime::Buffer<float> input(width + 2, height + 2), output(width, height);
  for (int y = 0; y < height + 2; ++y)
    for (int x = 0; x < width + 2; ++x) input(x, y) = float((x * 7 + y * 13) % 256) / 255;
  if (blur(input, output) != 0) return std::printf("FAIL: blur returned an error\n"), 1;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float rows[3];
      for (int dy = 0; dy < 3; ++dy) rows[dy] = (input(x, y + dy) + input(x + 1, y + dy) + input(x + 2, y + dy)) / 3;
      const float expected = (rows[0] + rows[1] + rows[2]) / 3;
      if (std::abs(output(x, y) - expected) > 1e-5f * (1 + std::abs(expected)))
        return std::printf("FAIL: output(%d, %d) is %g, expected %g\n", x, y, output(x, y), expected), 1;
    }
  std::printf("the candor-scheduled blur matches the reference on %dx%d pixels\n", width, height);
  return 0;
}
