// Integer lookups over a kernel description for the models' inner loops: Funcs by name, the
// edges into each stage and out of each Func, each edge's producer and consumer, and the
// input an edge reads. The description's own lookups scan every edge comparing names and
// return fresh vectors; a model evaluates thousands of stage costs per candidate.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "kernel_description.h"

namespace candor::models::halide {

class KernelIndex {
 public:
  explicit KernelIndex(const halide_bridge::KernelDescription& kd);

  // The position of the Func named `name` in kd.funcs, or -1.
  int func(const std::string& name) const;
  // Edges whose consumer is stage `stage` (0: pure, k: update k-1) of Func f, self edges of
  // updates included, in kd.edges order (KernelDescription::edges_into).
  const std::vector<const halide_bridge::Edge*>& edges_into(int f, int stage) const;
  // Edges reading Func f from another Func, in kd.edges order (KernelDescription::edges_from).
  const std::vector<const halide_bridge::Edge*>& edges_from(int f) const;
  // The Func an edge reads (-1: an input, or a name no Func has) and the Func reading it.
  int producer(const halide_bridge::Edge& e) const { return producer_[position(e)]; }
  int consumer(const halide_bridge::Edge& e) const { return consumer_[position(e)]; }
  // The input an edge reads (null when it reads a Func), and an input by name.
  const halide_bridge::InputInfo* input(const halide_bridge::Edge& e) const { return input_[position(e)]; }
  const halide_bridge::InputInfo* input(const std::string& name) const;

 private:
  size_t position(const halide_bridge::Edge& e) const { return size_t(&e - edges_); }

  const halide_bridge::Edge* edges_ = nullptr;
  std::map<std::string, int> funcs_;
  std::map<std::string, const halide_bridge::InputInfo*> inputs_;
  std::vector<std::vector<std::vector<const halide_bridge::Edge*>>> into_;  // by Func, by stage index
  std::vector<std::vector<const halide_bridge::Edge*>> from_;               // by Func
  std::vector<int> producer_, consumer_;                                    // by edge
  std::vector<const halide_bridge::InputInfo*> input_;                      // by edge
  std::vector<const halide_bridge::Edge*> none_;
};

}  // namespace candor::models::halide
