Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func blur_y_1 = pipeline.get_func(3);
Func gray_1 = pipeline.get_func(2);
Func ratio_1 = pipeline.get_func(6);
Func unsharp_mask_1 = pipeline.get_func(7);

{
    Var x = blur_y_1.args()[0];
    blur_y_1
        .compute_at(unsharp_mask_1, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}
{
    Var x = gray_1.args()[0];
    gray_1
        .compute_at(unsharp_mask_1, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}
{
    Var x = ratio_1.args()[0];
    ratio_1
        .compute_at(unsharp_mask_1, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}
{
    Var x = unsharp_mask_1.args()[0];
    Var y = unsharp_mask_1.args()[1];
    Var c = unsharp_mask_1.args()[2];
    unsharp_mask_1
        .compute_root()
        .split(x, x_o, x_i, 256)
        .split(y, y_o, y_i, 256)
        .reorder(x_i, y_i, c, x_o, y_o)
        .split(x_i, x_i_vo, x_i_vi, 8)
        .vectorize(x_i_vi)
        .parallel(y_o);
}

