set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1140,420
set output "seeds_depth.svg"
set multiplot layout 1,3
reset
set title "L = 64 (band cut to [0, 1])"
set xlabel "depth of the queried needle (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
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
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
reset
set title "L = 128 (band cut to [0, 1])"
set xlabel "depth of the queried needle (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p1s0 << EOD
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
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
reset
set title "L = 256 (band cut to [0, 1])"
set xlabel "depth of the queried needle (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p2s0 << EOD
0 0.04 0 0.2121061092
10 0 0 0
20 0 0 0
30 0 0 0
40 0 0 0
50 0 0 0
60 0.01666666667 0 0.0883775455
70 0.07333333333 0 0.3888612002
80 0.07 0 0.3293515912
90 0.4966666667 0 1
100 0.3733333333 0 1
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset multiplot
unset output
