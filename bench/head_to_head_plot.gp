# Plots head_to_head's relative_to_adams2019.dat: per app, each contender's runtime divided
# by Adams2019's, timed side by side where the app's contenders were (log scale; below 1 is
# faster than Adams2019).
# gnuplot -e "datafile='DIR/relative_to_adams2019.dat'; outfile='DIR/head_to_head.png'; ncols=N" head_to_head_plot.gp
# ncols: the file's columns (default: the words of its header line); subtitle: a second title
# line (the run, the machine).
if (!exists("datafile")) datafile = 'bench_results/relative_to_adams2019.dat'
if (!exists("outfile")) outfile = 'bench_results/head_to_head.png'
if (!exists("ncols")) ncols = int(system("head -n 1 '" . datafile . "' | wc -w"))
if (!exists("subtitle")) subtitle = ''
set terminal pngcairo size 1400,600 font ",10"
set output outfile
set title "Runtime relative to Halide 14's Adams2019, timed side by side (lower is faster)" . (subtitle eq '' ? '' : "\n" . subtitle) noenhanced
set ylabel "runtime / Adams2019 runtime (log scale)"
set logscale y
# Room above the tallest bar; tics between the decades.
set autoscale yfixmax
set offsets 0, 0, graph 0.06, 0
set ytics ("0.05" 0.05, "0.1" 0.1, "0.2" 0.2, "0.3" 0.3, "0.5" 0.5, "0.7" 0.7, "1" 1, "1.5" 1.5, "2" 2, "3" 3, \
           "5" 5, "10" 10, "20" 20, "50" 50, "100" 100)
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
