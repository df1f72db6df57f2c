#include <algorithm>

#include "app_util.h"
#include "apps.h"

namespace candor::apps {

const std::vector<halide_bridge::App>& all_apps() {
  static const std::vector<halide_bridge::App> apps = [] {
    std::vector<halide_bridge::App> list = {
        detail::make_bilateral_grid_app(),
        detail::make_box_blur_app(),
        detail::make_camera_pipe_app(),
        detail::make_conv_relu_app(),
        detail::make_depthwise_separable_conv_app(),
        detail::make_harris_app(),
        detail::make_hist_eq_app(),
        detail::make_iir_blur_app(),
        detail::make_lens_blur_app(),
        detail::make_local_laplacian_app(),
        detail::make_matmul_app(),
        detail::make_max_filter_app(),
        detail::make_non_local_means_app(),
        detail::make_stencil_chain_app(),
        detail::make_unsharp_mask_app(),
    };
    std::sort(list.begin(), list.end(),
              [](const halide_bridge::App& a, const halide_bridge::App& b) { return a.name < b.name; });
    return list;
  }();
  return apps;
}

const halide_bridge::App* find_app(const std::string& name) {
  for (const halide_bridge::App& app : all_apps()) {
    if (app.name == name) return &app;
  }
  return nullptr;
}

}  // namespace candor::apps
