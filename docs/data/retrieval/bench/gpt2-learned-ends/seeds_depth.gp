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
0 0.2033333333 0.1234794782 0.2831871884
10 0.1833333333 0.1074416727 0.259224994
20 0.05666666667 0.0423244909 0.07100884243
30 0.02666666667 0.0123244909 0.04100884243
40 0.01 0.01 0.01
50 0.01 0.01 0.01
60 0 0 0
70 0.05 0.05 0.05
80 0.04333333333 0.02899115757 0.0576755091
90 0.09333333333 0.055387503 0.1312791637
100 0.1033333333 0.05162188321 0.1550447835
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset output
