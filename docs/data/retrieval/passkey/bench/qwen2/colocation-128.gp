set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,420
set output "colocation-128.svg"
set multiplot layout 1,2
reset
set title "accuracy (L = 128); band: 95% Student-t, cut to [0, 1]"
set xlabel "depth of the queried needle (%)"
set ylabel "exact match"
set grid
set xrange [0:100]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p0s0 << EOD
0 0.03 0 0.1590795819
10 0.1133333333 0 0.6009673094
20 0.09666666667 0 0.5125897639
30 0.1633333333 0 0.8446999005
40 0.01333333333 0 0.05127916367
50 0.07666666667 0 0.2908410238
60 0.3866666667 0 1
70 0.58 0 1
80 0.62 0 1
90 0.6266666667 0 1
100 0.5 0 1
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
0 0.1971501393 0 0.4976172688
10 0.3190124623 0 0.692376791
20 0.3405060388 0 0.8530989428
30 0.3282028126 0 0.8627822666
40 0.3143139927 0 0.8077192922
50 0.2870565529 0 0.7053703423
60 0.3276311389 0 0.8184898262
70 0.3474503784 0 0.9078443474
80 0.3572084742 0 0.8802592908
90 0.3736274942 0 0.9470767702
100 0.3150238654 0 0.7913669074
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean of 3 seeds"
unset multiplot
unset output
