#include "install_dirs.h"

#include <dlfcn.h>
#include <link.h>

namespace candor::support {

std::filesystem::path module_prefix() {
  // dladdr names the shared object holding this function; for the main program it gives
  // argv[0], which need not be a path, so the executable is read from /proc instead.
  Dl_info info{};
  link_map* map = nullptr;
  std::filesystem::path module;
  if (dladdr1(reinterpret_cast<void*>(&module_prefix), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) != 0 &&
      map && map->l_name && map->l_name[0] != '\0') {
    module = map->l_name;
  } else {
    module = "/proc/self/exe";
  }
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::canonical(module, ec);
  if (ec || !self.has_parent_path()) return {};
  return self.parent_path().parent_path();
}

std::filesystem::path installed_data_directory(const std::filesystem::path& prefix) {
  if (prefix.empty()) return {};
  std::error_code ec;
  const std::filesystem::path installed = prefix / "share" / "candor";
  return std::filesystem::is_directory(installed, ec) ? installed : std::filesystem::path();
}

std::filesystem::path data_directory(const std::filesystem::path& prefix) {
  const std::filesystem::path installed = installed_data_directory(prefix);
  return installed.empty() ? prefix : installed;
}

}  // namespace candor::support
