set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "sweep.svg"
reset
set title "metrics.final.1 (seed mean, 95% t interval)"
set xlabel "lr"
set ylabel "metrics.final.1"
set key top right box opaque
set grid
$p0s0 << EOD
0.0003 0.03645833333 -0.04434080749 0.1172574742
0.001 0.09895833333 0.009319734797 0.1885969319
0.003 0.5833333333 0.06209817851 1.104568488
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc 1 title "metrics.final.1"
unset output
