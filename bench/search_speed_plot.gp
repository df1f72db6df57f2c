# Candidates per second per app (log scale): candor, the other build when given, and
# Adams2019's cost evaluations.
#   gnuplot -e "csv='...'; png='...'[; other='label']" bench/search_speed_plot.gp
set terminal pngcairo size 1100,520 font ",10" noenhanced
set output png
set datafile separator ","
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set yrange [100:*]
set ylabel "candidates (Adams2019: cost evaluations) per second"
set xtics rotate by -35 scale 0
set key above
set grid ytics
if (!exists("other")) other = "other build"
plot csv every ::1 using 2:xtic(1) title "candor" lc rgb "#2b6cb0", \
     "" every ::1 using ($3 > 0 ? $3 : NaN) title other lc rgb "#a0aec0", \
     "" every ::1 using ($5 > 0 ? $5 : NaN) title "Adams2019 (cost evaluations)" lc rgb "#c05621"
