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
0 0.51 0 1
33 0.3266666667 0 0.6714013803
67 0.21 0.01598264242 0.4040173576
100 0.2533333333 0 0.6172263
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
0 0.2330534405 0.06599721571 0.4001096652
33 0.2274414018 0.1802895747 0.2745932288
67 0.2303836151 0.205985792 0.2547814381
100 0.2260851364 0.1373042823 0.3148659906
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean of 3 seeds"
unset multiplot
unset output
