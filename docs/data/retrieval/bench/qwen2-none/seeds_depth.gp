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
0 0.5033333333 0 1
10 0.5766666667 0.02323705914 1
20 0.3533333333 0.06541616417 0.6412505025
30 0.3266666667 0 0.6995632366
40 0.3433333333 0 0.7095506182
50 0.2366666667 0.01401622455 0.4593171088
60 0.2966666667 0 0.6265367093
70 0.26 0.08611036018 0.4338896398
80 0.28 0 0.5811856911
90 0.2566666667 0 0.6369372256
100 0.24 0 0.5742065486
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
0 0.01 0 0.03484137712
10 0.003333333333 0 0.0176755091
20 0 0 0
30 0.006666666667 0 0.02100884243
40 0.006666666667 0 0.02100884243
50 0.01 0 0.03484137712
60 0.003333333333 0 0.0176755091
70 0.003333333333 0 0.0176755091
80 0 0 0
90 0 0 0
100 0 0 0
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
0 0.02 0 0.0630265273
10 0.01 0 0.0530265273
20 0.01 0 0.03484137712
30 0.003333333333 0 0.0176755091
40 0 0 0
50 0.003333333333 0 0.0176755091
60 0.006666666667 0 0.0353510182
70 0 0 0
80 0.003333333333 0 0.0176755091
90 0.003333333333 0 0.0176755091
100 0.003333333333 0 0.0176755091
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset multiplot
unset output
