set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 380,420
set output "seeds_depth.svg"
reset
set title "L = 64 (band cut to [0, 1])"
set xlabel "depth of the queried needle (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
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
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset output
