// The basic-block space instantiated on one block: the generated space, built from a parsed
// block, plus the encoding of its pairwise order choices that the models read.
#pragma once

#include "basic_block.gen.h"
#include "models/basic_block.h"
#include "models/basic_block_search.h"

namespace candor {

class BasicBlockSpace : public spaces::basic_block::GeneratedSpace {
 public:
  explicit BasicBlockSpace(models::BasicBlock block);

  const models::BasicBlock& block() const { return block_; }
  // order(a, b) for every pair: its variable and the value meaning "a before b".
  const models::OrderEncoding& encoding() const { return encoding_; }

 private:
  models::BasicBlock block_;
  models::OrderEncoding encoding_;
};

}  // namespace candor
