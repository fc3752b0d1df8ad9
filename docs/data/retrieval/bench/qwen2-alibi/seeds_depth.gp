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
0 1 1 1
10 1 1 1
20 1 1 1
30 1 1 1
40 1 1 1
50 1 1 1
60 0.995 0.9314689763 1.058531024
70 1 1 1
80 0.995 0.9314689763 1.058531024
90 1 1 1
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
0 0.79 0.1546897632 1.425310237
10 0.945 0.754406929 1.135593071
20 0.945 0.5002828342 1.389717166
30 0.93 0.4217518106 1.438248189
40 0.98 0.7258759053 1.234124095
50 0.96 0.5788138579 1.341186142
60 0.975 0.784406929 1.165593071
70 0.96 0.7058759053 1.214124095
80 0.98 0.98 0.98
90 0.985 0.9214689763 1.048531024
100 1 1 1
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
0 0.85 -0.03943433153 1.739434332
10 0.82 -0.8318066157 2.471806616
20 0.78 -1.12593071 2.68593071
30 0.85 -0.03943433153 1.739434332
40 0.855 -0.3520894499 2.06208945
50 0.915 0.5973448816 1.232655118
60 0.94 0.6858759053 1.194124095
70 0.965 0.6473448816 1.282655118
80 0.975 0.784406929 1.165593071
90 0.975 0.784406929 1.165593071
100 0.995 0.9314689763 1.058531024
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds (t 95%)"
unset multiplot
unset output
