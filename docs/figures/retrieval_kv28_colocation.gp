set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,420
set output "retrieval_kv28_colocation.svg"
set multiplot layout 1,2
reset
set title "accuracy (L = 28)"
set xlabel "depth of the queried pair (%)"
set ylabel "exact match"
set grid
set xrange [0:100]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p0s0 << EOD
0 0.05 0.05 0.05
10 0.06 0.06 0.06
20 0.38 0.38 0.38
30 0.35 0.35 0.35
40 0.47 0.47 0.47
50 0.07 0.07 0.07
60 0.03 0.03 0.03
70 0 0 0
80 0.02 0.02 0.02
90 0.06 0.06 0.06
100 0.08 0.08 0.08
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
0 0.186475871 0.186475871 0.186475871
10 0.1847177228 0.1847177228 0.1847177228
20 0.2831480083 0.2831480083 0.2831480083
30 0.2196028537 0.2196028537 0.2196028537
40 0.2953771628 0.2953771628 0.2953771628
50 0.1218434016 0.1218434016 0.1218434016
60 0.1095584492 0.1095584492 0.1095584492
70 0.1876573149 0.1876573149 0.1876573149
80 0.1215096699 0.1215096699 0.1215096699
90 0.1900898198 0.1900898198 0.1900898198
100 0.2424524456 0.2424524456 0.2424524456
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "one seed: no band"
unset multiplot
unset output
