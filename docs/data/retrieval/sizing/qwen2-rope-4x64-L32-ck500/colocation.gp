set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,420
set output "colocation.svg"
set multiplot layout 1,2
reset
set title "accuracy (L = 32)"
set xlabel "depth of the queried pair (%)"
set ylabel "exact match"
set grid
set xrange [0:100]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p0s0 << EOD
0 0.32 0.32 0.32
33 0.99 0.99 0.99
67 0.245 0.245 0.245
100 0.36 0.36 0.36
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "one seed: no band"
reset
set title "influence on the queried pair"
set xlabel "depth of the queried pair (%)"
set ylabel "share of the answer's influence"
set grid
set xrange [0:100]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p1s0 << EOD
0 0.1701813717 0.1701813717 0.1701813717
33 0.3310578102 0.3310578102 0.3310578102
67 0.1847299221 0.1847299221 0.1847299221
100 0.1692316861 0.1692316861 0.1692316861
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "one seed: no band"
unset multiplot
unset output
