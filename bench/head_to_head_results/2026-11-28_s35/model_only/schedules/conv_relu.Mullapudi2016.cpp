Var c_vi("c_vi");
Var c_vo("c_vo");
Var d0_vi("d0_vi");
Var d0_vo("d0_vo");
Var y_i("y_i");
Var y_o("y_o");

Func conv_1 = pipeline.get_func(4);
Func input_padded_1 = pipeline.get_func(2);
Func relu_1 = pipeline.get_func(5);

{
    Var c = conv_1.args()[0];
    RVar r$x(conv_1.update(0).get_schedule().rvars()[0].var);
    RVar r$y(conv_1.update(0).get_schedule().rvars()[1].var);
    RVar r$z(conv_1.update(0).get_schedule().rvars()[2].var);
    conv_1
        .compute_at(relu_1, y_o)
        .split(c, c_vo, c_vi, 8)
        .vectorize(c_vi);
    conv_1.update(0)
        .reorder(c, r$x, x, r$y, r$z, y, n)
        .split(c, c_vo, c_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(c_vi);
}
{
    Var d0 = input_padded_1.args()[0];
    input_padded_1
        .compute_at(relu_1, y_o)
        .split(d0, d0_vo, d0_vi, 8)
        .vectorize(d0_vi);
}
{
    Var c = relu_1.args()[0];
    Var x = relu_1.args()[1];
    Var y = relu_1.args()[2];
    Var n = relu_1.args()[3];
    relu_1
        .compute_root()
        .split(y, y_o, y_i, 32)
        .reorder(c, x, y_i, y_o, n)
        .split(c, c_vo, c_vi, 8)
        .vectorize(c_vi)
        .parallel(n);
}

