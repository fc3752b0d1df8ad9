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
0 0.04666666667 0.008720836331 0.084612497
33 0.1883333333 0 0.5488187215
67 0.1883333333 0 0.8055469969
100 0.09 0 0.1870086788
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
0 0.3258595673 0.1897092394 0.4620098952
33 0.3138716679 0.2492698214 0.3784735143
67 0.2247638699 0.1202750356 0.3292527041
100 0.1552255452 0.06454089591 0.2459101945
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean of 3 seeds"
unset multiplot
unset output
