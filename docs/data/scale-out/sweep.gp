set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "sweep.svg"
reset
set title "metrics.final.1 (seed mean, 95% t interval)"
set xlabel "lr"
set ylabel "metrics.final.1"
set logscale x
set format x "10^{%L}"
set grid
set xrange [0.00029999999999999997:0.0030000000000000001]
set format x "%g"
set xtics (0.00029999999999999997, 0.001, 0.0030000000000000001)
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key off box opaque
$p0s0 << EOD
0.0003 0.03645833333 -0.04434080749 0.1172574742
0.001 0.09895833333 0.009319734797 0.1885969319
0.003 0.5833333333 0.06209817851 1.104568488
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title ""
unset output
