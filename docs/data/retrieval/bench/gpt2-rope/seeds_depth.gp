set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1140,420
set output "seeds_depth.svg"
set multiplot layout 1,3
reset
set title "L = 32 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
0 0.06333333333 0.04899115757 0.0776755091
10 0.07333333333 0 0.149224994
20 0.21 0 0.6452560893
30 0.1866666667 0 0.5221019199
40 0.1333333333 0 0.3681248697
50 0.2066666667 0 0.8593538581
60 0.2066666667 0 0.9254944557
70 0.2133333333 0 0.9160999459
80 0.2 0 0.7809909013
90 0.07 0 0.1560530546
100 0.09 0 0.2190795819
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
reset
set title "L = 64 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p1s0 << EOD
0 0 0 0
10 0 0 0
20 0 0 0
30 0 0 0
40 0.003333333333 0 0.0176755091
50 0.003333333333 0 0.0176755091
60 0 0 0
70 0.006666666667 0 0.0353510182
80 0.02666666667 0 0.07837811679
90 0.02 0 0.06968275424
100 0.08666666667 0 0.2444306001
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
reset
set title "L = 128 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p2s0 << EOD
0 0 0 0
10 0.003333333333 0 0.0176755091
20 0 0 0
30 0.003333333333 0 0.0176755091
40 0 0 0
50 0 0 0
60 0 0 0
70 0 0 0
80 0 0 0
90 0.01 0 0.03484137712
100 0.05 0 0.2221061092
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset multiplot
unset output
