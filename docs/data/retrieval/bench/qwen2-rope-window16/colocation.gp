set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,420
set output "colocation.svg"
set multiplot layout 1,2
reset
set title "accuracy (L = 32)"
set xlabel "depth of the queried pair (%)"
set ylabel "exact match"
set key outside right box opaque
set grid
set xrange [0.000000:100.000000]
$p0s0 << EOD
0 0.48 0.48 0.48
33 0.55 0.55 0.55
67 1 1 1
100 1 1 1
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc 1 title "one seed: no band"
reset
set title "influence on the queried pair"
set xlabel "depth of the queried pair (%)"
set ylabel "share of the answer's influence"
set key outside right box opaque
set grid
set xrange [0.000000:100.000000]
$p1s0 << EOD
0 0.167108539 0.167108539 0.167108539
33 0.2408761864 0.2408761864 0.2408761864
67 0.2868875236 0.2868875236 0.2868875236
100 0.3434778292 0.3434778292 0.3434778292
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc 1 title "one seed: no band"
unset multiplot
unset output
