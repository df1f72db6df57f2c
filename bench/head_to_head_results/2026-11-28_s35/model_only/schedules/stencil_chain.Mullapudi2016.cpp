Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func stage_1_1 = pipeline.get_func(2);
Func stage_2_1 = pipeline.get_func(3);
Func stage_3_1 = pipeline.get_func(4);
Func stage_4_1 = pipeline.get_func(5);

{
    Var x = stage_1_1.args()[0];
    stage_1_1
        .compute_at(stage_4_1, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_2_1.args()[0];
    stage_2_1
        .compute_at(stage_4_1, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_3_1.args()[0];
    stage_3_1
        .compute_at(stage_4_1, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_4_1.args()[0];
    Var y = stage_4_1.args()[1];
    stage_4_1
        .compute_root()
        .split(x, x_o, x_i, 256)
        .split(y, y_o, y_i, 256)
        .reorder(x_i, y_i, x_o, y_o)
        .split(x_i, x_i_vo, x_i_vi, 16)
        .vectorize(x_i_vi)
        .parallel(y_o);
}

