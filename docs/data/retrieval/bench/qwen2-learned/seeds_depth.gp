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
0 0.06 0.03515862288 0.08484137712
10 0.07 0.004275893923 0.1357241061
20 0.08 0.05515862288 0.1048413771
30 0.04666666667 0.01798231514 0.0753510182
40 0.03333333333 0.01899115757 0.0476755091
50 0.06666666667 0 0.1465205218
60 0.01666666667 0.002324490901 0.03100884243
70 0.07333333333 0.05899115757 0.0876755091
80 0.07333333333 0.02162188321 0.1250447835
90 0.06666666667 0.02872083633 0.104612497
100 0.09333333333 0.04162188321 0.1450447835
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset output
