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
0 0.05 0.05 0.05
33 0.055 0.055 0.055
67 0.04 0.04 0.04
100 0.08 0.08 0.08
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
0 0.3653034016 0.3653034016 0.3653034016
33 0.3889251937 0.3889251937 0.3889251937
67 0.3818803929 0.3818803929 0.3818803929
100 0.3650576109 0.3650576109 0.3650576109
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc 1 title "one seed: no band"
unset multiplot
unset output
