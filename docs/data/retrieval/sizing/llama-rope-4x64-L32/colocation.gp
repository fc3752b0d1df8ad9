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
0 0.92 0.92 0.92
33 0.655 0.655 0.655
67 0.525 0.525 0.525
100 0.93 0.93 0.93
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
0 0.233472104 0.233472104 0.233472104
33 0.2262652336 0.2262652336 0.2262652336
67 0.1561044224 0.1561044224 0.1561044224
100 0.1540009657 0.1540009657 0.1540009657
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "one seed: no band"
unset multiplot
unset output
