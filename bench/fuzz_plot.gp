# Coverage (edges) against executions of each fuzz harness, from bench/fuzz.sh's logs.
#   gnuplot -e "dir='build-fuzz'; outfile='bench/fuzz_coverage.png'" bench/fuzz_plot.gp
set terminal pngcairo size 900,500 font ",11"
set output outfile
set title "libFuzzer coverage over an hour per harness (ASan + UBSan)"
set xlabel "executions"
set ylabel "edges covered"
set logscale x
set key center right
set grid
plot dir.'/fuzz_spec.cov.dat' using 1:2 with lines lw 2 title "spec (front end + code generator)", \
     dir.'/fuzz_bb.cov.dat' using 1:2 with lines lw 2 title ".bb reader + issue model", \
     dir.'/fuzz_schedule_json.cov.dat' using 1:2 with lines lw 2 title "schedule JSON + validation"
