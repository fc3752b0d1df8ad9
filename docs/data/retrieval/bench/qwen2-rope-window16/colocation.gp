set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,420
set output "colocation.svg"
set multiplot layout 1,2
reset
set title "accuracy (L = 32); band: 95% Student-t, cut to [0, 1]"
set xlabel "depth of the queried pair (%)"
set ylabel "exact match"
set grid
set xrange [0:100]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p0s0 << EOD
0 0.3816666667 0.111724972 0.6516083613
33 0.5283333333 0.4014638376 0.6552028291
67 1 1 1
100 1 1 1
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean of 3 seeds"
reset
set title "influence on the queried pair; band: 95% Student-t, cut to [0, 1]"
set xlabel "depth of the queried pair (%)"
set ylabel "share of the answer's influence"
set grid
set xrange [0:100]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p1s0 << EOD
0 0.2120002814 0.01501544643 0.4089851164
33 0.2105023963 0.1350232259 0.2859815667
67 0.3110905187 0.2390655433 0.3831154942
100 0.3134181186 0.2353753569 0.3914608804
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean of 3 seeds"
unset multiplot
unset output
