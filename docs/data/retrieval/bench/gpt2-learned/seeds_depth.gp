set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 380,420
set output "seeds_depth.svg"
reset
set title "L = 32 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
0 0.05666666667 0.004955216541 0.1083781168
10 0.07666666667 0.02495521654 0.1283781168
20 0.08 0.03031724576 0.1296827542
30 0.05666666667 0 0.1140353697
40 0.03333333333 0.01899115757 0.0476755091
50 0.05333333333 0 0.1405733827
60 0.04666666667 0.0323244909 0.06100884243
70 0.09333333333 0.006093283982 0.1805733827
80 0.08 0.0369734727 0.1230265273
90 0.06666666667 0.01495521654 0.1183781168
100 0.09666666667 0.05872083633 0.134612497
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset output
