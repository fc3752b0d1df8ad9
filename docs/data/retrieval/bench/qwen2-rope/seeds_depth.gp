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
0 0.9966666667 0.9823244909 1
10 0.9933333333 0.9789911576 1
20 0.99 0.9651586229 1
30 0.9933333333 0.9789911576 1
40 1 1 1
50 0.9933333333 0.9789911576 1
60 0.9933333333 0.9789911576 1
70 0.9833333333 0.9316218832 1
80 0.9866666667 0.9579823151 1
90 0.9966666667 0.9823244909 1
100 0.9966666667 0.9823244909 1
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
40 0 0 0
50 0 0 0
60 0.003333333333 0 0.0176755091
70 0.03 0 0.1045241314
80 0.03333333333 0 0.1050442122
90 0.04 0 0.153837491
100 0.13 0 0.5172387457
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
20 0.003333333333 0 0.0176755091
30 0.003333333333 0 0.0176755091
40 0 0 0
50 0.006666666667 0 0.02100884243
60 0.003333333333 0 0.0176755091
70 0 0 0
80 0 0 0
90 0.006666666667 0 0.0353510182
100 0.01 0 0.03484137712
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset multiplot
unset output
