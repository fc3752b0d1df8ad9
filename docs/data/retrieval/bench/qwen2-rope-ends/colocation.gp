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
0 0.845 0.1888160697 1
33 0.9716666667 0.9032588482 1
67 0.8133333333 0.1382219676 1
100 0.9316666667 0.6591653271 1
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
0 0.2572718566 0.07492349281 0.4396202205
33 0.2779085334 0.2115349156 0.3442821512
67 0.2223575525 0.1122117896 0.3325033154
100 0.2580495146 0.06540502329 0.450694006
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean of 3 seeds"
unset multiplot
unset output
