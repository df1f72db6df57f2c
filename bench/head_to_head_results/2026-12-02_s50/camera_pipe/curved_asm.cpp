#include <Halide.h>
using namespace Halide;
int main(int argc, char** argv) {
  int variant = atoi(argv[1]);
  ImageParam corrected(Int(32), 3, "corrected"), curve(UInt(8), 1, "curve");
  Func curved("curved");
  Var x("x"), y("y"), c("c"), xo("xo"), xi("xi");
  curved(x, y, c) = cast<int16_t>(curve(clamp(corrected(x, y, c), 0, 1023)));
  if (variant == 0) curved.split(x, xo, xi, 8).reorder(xi, c, xo, y).unroll(xi);
  else curved.split(x, xo, xi, 8).reorder(xi, xo, c, y).unroll(xi);
  curved.compile_to_assembly(std::string("v") + argv[1] + ".s", {corrected, curve}, get_host_target());
}
