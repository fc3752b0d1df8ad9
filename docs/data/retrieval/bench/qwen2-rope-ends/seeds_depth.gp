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
0 0.76 0 1
10 0.74 0 1
20 0.975 0.9114689763 1
30 0.975 0.784406929 1
40 0.94 0.1776277158 1
50 0.77 0 1
60 0.745 0 1
70 0.77 0 1
80 0.775 0 1
90 0.92 0.03056566847 1
100 0.895 0 1
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
0 0 0 0
10 0 0 0
20 0.005 0 0.06853102368
30 0 0 0
40 0.01 0.01 0.01
50 0.005 0 0.06853102368
60 0.005 0 0.06853102368
70 0.05 0 0.5582481894
80 0.05 0 0.1770620474
90 0.035 0 0.3526551184
100 0.24 0 1
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
0 0 0 0
10 0 0 0
20 0.005 0 0.06853102368
30 0 0 0
40 0.005 0 0.06853102368
50 0 0 0
60 0 0 0
70 0 0 0
80 0.01 0.01 0.01
90 0.025 0 0.215593071
100 0.04 0 0.2941240947
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds (t 95%)"
unset multiplot
unset output
