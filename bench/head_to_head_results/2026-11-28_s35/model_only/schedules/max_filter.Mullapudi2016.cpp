Var d0_vi("d0_vi");
Var d0_vo("d0_vo");
Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func input_clamped_1 = pipeline.get_func(1);
Func max_filter_1 = pipeline.get_func(5);
Func vert_max_2_1 = pipeline.get_func(3);
Func vert_max_3_1 = pipeline.get_func(4);

{
    Var d0 = input_clamped_1.args()[0];
    input_clamped_1
        .compute_at(max_filter_1, x_o)
        .split(d0, d0_vo, d0_vi, 8)
        .vectorize(d0_vi);
}
{
    Var x = max_filter_1.args()[0];
    Var y = max_filter_1.args()[1];
    max_filter_1
        .compute_root()
        .split(x, x_o, x_i, 256)
        .split(y, y_o, y_i, 256)
        .reorder(x_i, y_i, x_o, y_o)
        .split(x_i, x_i_vo, x_i_vi, 8)
        .vectorize(x_i_vi)
        .parallel(y_o);
}
{
    Var x = vert_max_2_1.args()[0];
    vert_max_2_1
        .compute_at(max_filter_1, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}
{
    Var x = vert_max_3_1.args()[0];
    vert_max_3_1
        .compute_at(max_filter_1, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}

