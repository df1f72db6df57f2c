# Plots head_to_head's relative_to_adams2019.dat: per app, each contender's runtime divided
# by Adams2019's, timed side by side where the app's contenders were (log scale; below 1 is
# faster than Adams2019).
# gnuplot -e "datafile='DIR/relative_to_adams2019.dat'; outfile='DIR/head_to_head.png'; ncols=N" head_to_head_plot.gp
if (!exists("datafile")) datafile = 'bench_results/relative_to_adams2019.dat'
if (!exists("outfile")) outfile = 'bench_results/head_to_head.png'
if (!exists("ncols")) ncols = 6
set terminal pngcairo size 1400,600 font ",10"
set output outfile
set title "Runtime relative to Halide 14's Adams2019, timed side by side (lower is faster)"
set ylabel "runtime / Adams2019 runtime (log scale)"
set logscale y
set grid ytics mytics
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key outside right top
set xtics rotate by -35 left noenhanced
set key noenhanced
set datafile missing "?"
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "black"
plot for [i=2:ncols] datafile using i:xtic(1) title columnheader(i)
