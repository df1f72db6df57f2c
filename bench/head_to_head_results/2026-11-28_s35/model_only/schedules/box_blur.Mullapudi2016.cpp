Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");

Func blur_x_1 = pipeline.get_func(2);
Func blur_y_1 = pipeline.get_func(3);

{
    Var x = blur_x_1.args()[0];
    blur_x_1
        .compute_at(blur_y_1, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = blur_y_1.args()[0];
    Var y = blur_y_1.args()[1];
    blur_y_1
        .compute_root()
        .split(x, x_o, x_i, 64)
        .reorder(x_i, y, x_o)
        .split(x_i, x_i_vo, x_i_vi, 16)
        .vectorize(x_i_vi)
        .parallel(x_o);
}

