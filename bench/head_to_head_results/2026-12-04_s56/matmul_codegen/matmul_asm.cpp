// The assembly of matmul in the shape of candor's pick with an outer tile TX x TY, no bounds (extents known at run time only).
// Build: g++ -O1 -std=c++17 -I/usr/include/halide14 matmul_asm.cpp -o matmul_asm -lHalide14 -lpthread -ldl
// Run:   ./matmul_asm TX TY OUT.s
#include <Halide.h>
#include <cstdio>
#include <cstdlib>
using namespace Halide;
const int N = 512;
int main(int argc, char** argv) {
  int tx = atoi(argv[1]), ty = atoi(argv[2]);
  ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
  Var x("x"), y("y"), xo("x_o"), xi("x_i"), xio("x_i_o"), xii("x_i_i"), yo("y_o"), yi("y_i"), yio("y_i_o"), yii("y_i_i");
  RDom k(0, N, "k");
  Func dot("dot"), out("matmul");
  dot(x, y) = 0.0f;
  dot(x, y) += a(k, y) * b(x, k);
  out(x, y) = dot(x, y);
  out.split(x, xo, xi, tx).split(xi, xio, xii, 16).split(y, yo, yi, ty).split(yi, yio, yii, 8)
     .reorder(xii, yii, xio, yio, xo, yo).vectorize(xii).unroll(yii).parallel(yo);
  dot.compute_at(out, xio);
  Var dxo("dxo"), dxi("dxi"), dyo("dyo"), dyi("dyi");
  dot.split(x, dxo, dxi, 16).split(y, dyo, dyi, 8).reorder(dxi, dyi, dxo, dyo).vectorize(dxi).unroll(dyi);
  dot.update().split(x, dxo, dxi, 16, TailStrategy::GuardWithIf).split(y, dyo, dyi, 8, TailStrategy::GuardWithIf)
     .reorder(dxi, dyi, k, dxo, dyo).vectorize(dxi).unroll(dyi);
  out.compile_to_assembly(argv[3], {a, b}, "f", get_host_target());
}
