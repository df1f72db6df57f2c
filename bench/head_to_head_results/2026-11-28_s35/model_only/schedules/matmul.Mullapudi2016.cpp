Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");

Func dot_1 = pipeline.get_func(2);
Func matmul_1 = pipeline.get_func(3);

{
    Var x = dot_1.args()[0];
    RVar k$x(dot_1.update(0).get_schedule().rvars()[0].var);
    dot_1
        .compute_at(matmul_1, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
    dot_1.update(0)
        .reorder(x, k$x, y)
        .split(x, x_vo, x_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(x_vi);
}
{
    Var x = matmul_1.args()[0];
    Var y = matmul_1.args()[1];
    matmul_1
        .compute_root()
        .split(x, x_o, x_i, 64)
        .reorder(x_i, x_o, y)
        .split(x_i, x_i_vo, x_i_vi, 8)
        .vectorize(x_i_vi)
        .parallel(y);
}

