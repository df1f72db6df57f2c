// Files as user input and output: every failure is a message naming the path, never an
// exception escaping to terminate() or a write that leaves a half-written file behind.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace candor::support {

// The contents of a regular file of at most `max_bytes` bytes. On failure (missing, a
// directory, a device or fifo, too large, unreadable) returns nullopt and sets `error` to
// "PATH: REASON".
std::optional<std::string> read_regular_file(const std::string& path, std::size_t max_bytes,
                                             std::string& error);

// Writes `content` to `path` through a temporary file in the same directory that is renamed
// over it, so that readers see the old file or the new one, never a part. Creates missing
// parent directories. Refuses a path that exists and is not a regular file (a directory, a
// device). False with `error` set ("cannot write PATH: REASON") on failure; the temporary
// file is removed.
bool write_file_atomically(const std::string& path, const std::string& content, std::string& error);

// write_file_atomically unless `path` already holds exactly `content` (compared by size
// first, then by reading at most that many bytes), so that builds do not redo the work that
// depends on an unchanged file.
bool write_file_if_changed(const std::string& path, const std::string& content, std::string& error);

// Whether two paths name the same file, or would once created (compares absolute, normal
// forms when the files do not exist yet).
bool same_file(const std::string& a, const std::string& b);

}  // namespace candor::support
