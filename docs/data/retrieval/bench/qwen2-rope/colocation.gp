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
0 0.995 0.9314689763 1.058531024
33 0.9975 0.9657344882 1.029265512
67 0.9925 0.8972034645 1.087796536
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
0 0.3114881631 -0.06258971678 0.685566043
33 0.2878386156 0.2522791836 0.3233980476
67 0.2876339846 0.1428462749 0.4324216942
100 0.2547070112 -0.2734719999 0.7828860223
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc 1 title "mean over 2 seeds, 95% Student-t band"
unset multiplot
unset output
