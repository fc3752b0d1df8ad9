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
0 0.18 0.18 0.18
33 0.025 0.025 0.025
67 0.025 0.025 0.025
100 0.105 0.105 0.105
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
0 0.3615154111 0.3615154111 0.3615154111
33 0.3828025914 0.3828025914 0.3828025914
67 0.3858682427 0.3858682427 0.3858682427
100 0.3394974431 0.3394974431 0.3394974431
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc 1 title "one seed: no band"
unset multiplot
unset output
