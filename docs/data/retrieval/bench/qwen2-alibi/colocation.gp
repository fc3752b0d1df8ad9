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
0 0.9975 0.9657344882 1.029265512
33 1 1 1
67 1 1 1
100 0.9975 0.9657344882 1.029265512
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds, 95% Student-t band"
reset
set title "influence on the queried pair"
set xlabel "depth of the queried pair (%)"
set ylabel "share of the answer's influence"
set key outside right box opaque
set grid
set xrange [0.000000:100.000000]
$p1s0 << EOD
0 0.5001150099 0.0005935013895 0.9996365183
33 0.4747809141 0.1873888985 0.7621729297
67 0.4565222462 0.3611916871 0.5518528053
100 0.4600839147 0.4538218421 0.4663459872
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds, 95% Student-t band"
unset multiplot
unset output
