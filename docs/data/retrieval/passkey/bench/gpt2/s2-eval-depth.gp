set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 380,420
set output "s2-eval-depth.svg"
reset
set title "L = 64 (1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
0 0.77 0.6784561698 0.8415673412
10 0.89 0.813687035 0.9374580364
20 0.91 0.8377378715 0.95192746
30 0.91 0.8377378715 0.95192746
40 0.91 0.8377378715 0.95192746
50 0.9 0.8256343385 0.9447708629
60 0.88 0.8018790057 0.9300059356
70 0.98 0.9299882093 0.9944980324
80 0.91 0.8377378715 0.95192746
90 0.92 0.850018923 0.9589065385
100 0.78 0.6892964649 0.8499871762
EOD
$p0s1 << EOD
0 1
10 1
20 1
30 1
40 1
50 1
60 1
70 1
80 1
90 1
100 1
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "accuracy (Wilson 95%)", \
     $p0s1 using 1:2 with lines dt 2 lw 1 lc rgb "#009e73" title "chance 1/K"
unset output
