set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,420
set output "colocation-64.svg"
set multiplot layout 1,2
reset
set title "accuracy (L = 64); band: 95% Student-t, cut to [0, 1]"
set xlabel "depth of the queried needle (%)"
set ylabel "exact match"
set grid
set xrange [0:100]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p0s0 << EOD
0 0.6666666667 0 1
10 0.6666666667 0 1
20 0.6666666667 0 1
30 0.6666666667 0 1
40 0.6666666667 0 1
50 0.6666666667 0 1
60 0.6666666667 0 1
70 0.6666666667 0 1
80 0.6666666667 0 1
90 0.6666666667 0 1
100 0.6666666667 0 1
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean of 3 seeds"
reset
set title "influence on the queried needle; band: 95% Student-t, cut to [0, 1]"
set xlabel "depth of the queried needle (%)"
set ylabel "share of the answer's influence"
set grid
set xrange [0:100]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p1s0 << EOD
0 0.4893149342 0 1
10 0.4772400407 0 1
20 0.4981571599 0 1
30 0.4893481221 0 1
40 0.4799733378 0 1
50 0.4840160731 0 1
60 0.4776518943 0 1
70 0.4874362527 0 1
80 0.4861723518 0 1
90 0.4799119941 0 1
100 0.4764896213 0 1
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean of 3 seeds"
unset multiplot
unset output
