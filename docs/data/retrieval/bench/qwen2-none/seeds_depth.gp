set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1140,420
set output "seeds_depth.svg"
set multiplot layout 1,3
reset
set title "L = 32 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set key top center box opaque
set grid
set xrange [-2.000000:102.000000]
set yrange [0.000000:1.200000]
$p0s0 << EOD
0 0.375 0 1
10 0.505 0 1
20 0.3 0 1
30 0.25 0 1
40 0.26 0 0.6411861421
50 0.185 0.1214689763 0.2485310237
60 0.22 0.22 0.22
70 0.225 0 0.6697171658
80 0.21 0.21 0.21
90 0.17 0 0.5511861421
100 0.165 0 0.6097171658
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds (t 95%)"
reset
set title "L = 64 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set key top center box opaque
set grid
set xrange [-2.000000:102.000000]
set yrange [0.000000:1.200000]
$p1s0 << EOD
0 0.005 0 0.06853102368
10 0.005 0 0.06853102368
20 0 0 0
30 0.005 0 0.06853102368
40 0.01 0.01 0.01
50 0.005 0 0.06853102368
60 0.005 0 0.06853102368
70 0 0 0
80 0 0 0
90 0 0 0
100 0 0 0
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds (t 95%)"
reset
set title "L = 128 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set key top center box opaque
set grid
set xrange [-2.000000:102.000000]
set yrange [0.000000:1.200000]
$p2s0 << EOD
0 0.015 0 0.205593071
10 0.015 0 0.205593071
20 0.005 0 0.06853102368
30 0.005 0 0.06853102368
40 0 0 0
50 0.005 0 0.06853102368
60 0 0 0
70 0 0 0
80 0 0 0
90 0 0 0
100 0.005 0 0.06853102368
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds (t 95%)"
unset multiplot
unset output
