# Plots prediction_error.py's prediction_error.dat: per pipeline, the runtime candor's cost
# model predicted for the schedule it picked against the runtime measured (log-log); the
# diagonal is a perfect prediction, the dashed lines are 3x off either way.
# gnuplot -e "datafile='DIR/prediction_error.dat'; outfile='DIR/prediction_error.png'" prediction_error_plot.gp
if (!exists("datafile")) datafile = 'prediction_error.dat'
if (!exists("outfile")) outfile = 'prediction_error.png'
if (!exists("subtitle")) subtitle = ''
set terminal pngcairo size 900,800 font ",10"
set output outfile
set title "candor's predicted vs measured runtime of the schedule it emits" . (subtitle eq '' ? '' : "\n" . subtitle) noenhanced
set xlabel "measured runtime (ms, log scale)"
set ylabel "predicted runtime (ms, log scale)"
set logscale xy
set grid
set key top left
set size square
plot x title "predicted = measured" lc rgb "black", \
     3 * x title "3x off" dt 2 lc rgb "gray40", x / 3 notitle dt 2 lc rgb "gray40", \
     datafile using ($1 == 2 ? $4 : 1/0):3 title "random pipelines (held-out seeds)" pt 6 ps 0.8 lc rgb "#999999", \
     datafile using ($1 == 0 ? $4 : 1/0):3 title "example apps" pt 7 ps 1.1 lc rgb "#1f77b4", \
     datafile using ($1 == 1 ? $4 : 1/0):3 title "held-out corpus" pt 5 ps 1.1 lc rgb "#d62728"
