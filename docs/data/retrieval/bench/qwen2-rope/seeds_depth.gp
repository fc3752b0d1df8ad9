set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1140,420
set output "seeds_depth.svg"
set multiplot layout 1,3
reset
set title "L = 32"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set key top center box opaque
set grid
set xrange [-2.000000:102.000000]
set yrange [0.000000:1.200000]
$p0s0 << EOD
0 0.995 0.9314689763 1.058531024
10 0.995 0.9314689763 1.058531024
20 0.985 0.9214689763 1.048531024
30 0.995 0.9314689763 1.058531024
40 1 1 1
50 0.995 0.9314689763 1.058531024
60 0.995 0.9314689763 1.058531024
70 0.98 0.7258759053 1.234124095
80 0.99 0.8629379526 1.117062047
90 0.995 0.9314689763 1.058531024
100 1 1 1
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds (t 95%)"
reset
set title "L = 64"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set key top center box opaque
set grid
set xrange [-2.000000:102.000000]
set yrange [0.000000:1.200000]
$p1s0 << EOD
0 0 0 0
10 0 0 0
20 0 0 0
30 0 0 0
40 0 0 0
50 0 0 0
60 0.005 -0.05853102368 0.06853102368
70 0.03 -0.3511861421 0.4111861421
80 0.025 -0.2926551184 0.3426551184
90 0.045 -0.5267792131 0.6167792131
100 0.175 -1.540337639 1.890337639
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds (t 95%)"
reset
set title "L = 128"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set key top center box opaque
set grid
set xrange [-2.000000:102.000000]
set yrange [0.000000:1.200000]
$p2s0 << EOD
0 0 0 0
10 0.005 -0.05853102368 0.06853102368
20 0 0 0
30 0.005 -0.05853102368 0.06853102368
40 0 0 0
50 0.005 -0.05853102368 0.06853102368
60 0.005 -0.05853102368 0.06853102368
70 0 0 0
80 0 0 0
90 0.01 -0.1170620474 0.1370620474
100 0.01 -0.1170620474 0.1370620474
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds (t 95%)"
unset multiplot
unset output
