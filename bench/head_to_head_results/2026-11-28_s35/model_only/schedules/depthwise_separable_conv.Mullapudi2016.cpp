Var c_vi("c_vi");
Var c_vo("c_vo");
Var d0_vi("d0_vi");
Var d0_vo("d0_vo");
Var x_i("x_i");
Var x_o("x_o");
Var y_i("y_i");
Var y_o("y_o");

Func depthwise_1 = pipeline.get_func(4);
Func depthwise_relu_1 = pipeline.get_func(5);
Func input_padded_1 = pipeline.get_func(3);
Func pointwise_1 = pipeline.get_func(8);
Func pointwise_relu_1 = pipeline.get_func(9);

{
    Var c = depthwise_1.args()[0];
    RVar k$x(depthwise_1.update(0).get_schedule().rvars()[0].var);
    RVar k$y(depthwise_1.update(0).get_schedule().rvars()[1].var);
    depthwise_1
        .compute_at(pointwise_relu_1, x_o)
        .split(c, c_vo, c_vi, 8)
        .vectorize(c_vi);
    depthwise_1.update(0)
        .reorder(c, k$x, x, k$y, y)
        .split(c, c_vo, c_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(c_vi);
}
{
    Var c = depthwise_relu_1.args()[0];
    depthwise_relu_1
        .compute_at(pointwise_relu_1, x_o)
        .split(c, c_vo, c_vi, 8)
        .vectorize(c_vi);
}
{
    Var d0 = input_padded_1.args()[0];
    input_padded_1
        .compute_at(pointwise_relu_1, x_o)
        .split(d0, d0_vo, d0_vi, 8)
        .vectorize(d0_vi);
}
{
    Var c = pointwise_1.args()[0];
    RVar ci$x(pointwise_1.update(0).get_schedule().rvars()[0].var);
    pointwise_1
        .compute_at(pointwise_relu_1, x_o)
        .split(c, c_vo, c_vi, 8)
        .vectorize(c_vi);
    pointwise_1.update(0)
        .reorder(c, ci$x, x, y)
        .split(c, c_vo, c_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(c_vi);
}
{
    Var c = pointwise_relu_1.args()[0];
    Var x = pointwise_relu_1.args()[1];
    Var y = pointwise_relu_1.args()[2];
    pointwise_relu_1
        .compute_root()
        .split(x, x_o, x_i, 32)
        .split(y, y_o, y_i, 32)
        .reorder(c, x_i, y_i, x_o, y_o)
        .split(c, c_vo, c_vi, 8)
        .vectorize(c_vi)
        .parallel(y_o);
}

