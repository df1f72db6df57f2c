// Where a candor program or the plugin finds its data files, in the build tree and in an
// installed package (`cmake --install build --prefix P`, cmake/CandorInstall.cmake):
//
//   build tree      build/bin/candor, build/lib/libautoschedule_candor.so  data: build/
//   installed       P/bin/candor,     P/lib/libautoschedule_candor.so      data: P/share/candor/
//
// so that an installed package never reads the source tree it was built from.
#pragma once

#include <filesystem>

namespace candor::support {

// The directory above the one holding the module (the executable, or the shared object such
// as the plugin) that this code is linked into: build/ or the install prefix. Empty when it
// cannot be found.
std::filesystem::path module_prefix();

// PREFIX/share/candor when PREFIX is given and that directory exists (an installed
// package), else empty.
std::filesystem::path installed_data_directory(const std::filesystem::path& prefix);

// installed_data_directory(PREFIX) when there is one, else PREFIX.
std::filesystem::path data_directory(const std::filesystem::path& prefix);

}  // namespace candor::support
