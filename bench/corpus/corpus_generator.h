// What every corpus generator file ends with, at global scope:
//   CANDOR_CORPUS_GENERATOR(ClassName, registered_name, "one-line description")
// It registers the class with Halide (HALIDE_REGISTER_GENERATOR: GenGen and the stock
// autoscheduler plugins see a plain generator) and defines the entry corpus.cpp lists,
// which also keeps the file's object file, and so its registration, in every link.
#pragma once

#include <Halide.h>

#define CANDOR_CORPUS_GENERATOR(CLASS, NAME, DESCRIPTION) \
  HALIDE_REGISTER_GENERATOR(CLASS, NAME)                  \
  namespace candor::corpus::entries {                     \
  const char* NAME() { return DESCRIPTION; }              \
  }
