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
0 0.54 0.54 0.54
33 0.945 0.945 0.945
67 0.5 0.5 0.5
100 0.805 0.805 0.805
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
0 0.1826132551 0.1826132551 0.1826132551
33 0.2751350942 0.2751350942 0.2751350942
67 0.1714682508 0.1714682508 0.1714682508
100 0.1896111926 0.1896111926 0.1896111926
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc 1 title "one seed: no band"
unset multiplot
unset output
