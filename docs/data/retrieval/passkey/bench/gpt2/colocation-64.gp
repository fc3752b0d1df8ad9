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
0 0.9233333333 0.5934632907 1
10 0.9633333333 0.8055693999 1
20 0.97 0.8409204181 1
30 0.97 0.8409204181 1
40 0.97 0.8409204181 1
50 0.9666666667 0.823244909 1
60 0.96 0.7878938908 1
70 0.9933333333 0.9646489818 1
80 0.97 0.8409204181 1
90 0.97 0.8617189475 1
100 0.9266666667 0.6111387998 1
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
0 0.6449111991 0.5830940765 0.7067283218
10 0.6401602404 0.47816589 0.8021545908
20 0.6304390935 0.5415041225 0.7193740644
30 0.6455757995 0.4484097139 0.8427418851
40 0.6651130073 0.4623284408 0.8678975738
50 0.650211504 0.4043744704 0.8960485377
60 0.6499799144 0.4105946602 0.8893651686
70 0.6583729703 0.4033341867 0.9134117538
80 0.6556475531 0.427393268 0.8839018382
90 0.6366110121 0.4346361999 0.8385858243
100 0.6134601267 0.4584057052 0.7685145482
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean of 3 seeds"
unset multiplot
unset output
