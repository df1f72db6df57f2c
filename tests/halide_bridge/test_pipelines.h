// Small hand-built pipelines for the bridge tests, in the app contract (halide_bridge/app.h)
// so the tests do not depend on the example apps.
#pragma once

#include <vector>

#include "app.h"

namespace candor::halide_bridge::testing {

// in(x, y) float32 W x H -> blur_x(x, y) = (in(x-1,y) + in(x,y) + in(x+1,y)) / 3
//                        -> blur_y(x, y) = (blur_x(x,y-1) + blur_x(x,y) + blur_x(x,y+1)) / 3
// with in clamped by a boundary condition Func "in_clamped". Output estimates W x H.
App blur_app(int width = 64, int height = 48);

// C(i, j) = sum_k A(k, j) * B(i, k) over an RDom; int32 inputs, so exact. Update stage.
App matmul_app(int n = 32);

// Downsample by 2 then upsample back (Jacobians 2 and 1/2), uint16, with a histogram-like
// data-dependent lookup into a 256-entry table.
App resample_app(int width = 64, int height = 64);

// A three-stage pipeline where one producer is consumed by two consumers, and a
// two-output pipeline (Tuple-free, two Funcs).
App diamond_app(int width = 64, int height = 32);

// A bilateral-grid splat: hist(x, y, b) counts the values of in's 4x4 cell (x, y) falling in
// bin b (of 8); the update stores at a data-dependent bin. Output estimates W/4 x H/4 x 8.
App splat_app(int width = 64, int height = 64);

std::vector<App> all_test_apps();

}  // namespace candor::halide_bridge::testing
