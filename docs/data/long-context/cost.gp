set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,540
set output "cost.svg"
set multiplot layout 1,2
reset
set title "time of one profile"
set xlabel "L (tokens)"
set ylabel "seconds"
set format y "10^{%g}"
set logscale x
set format x "10^{%L}"
set grid
set xrange [1024:16384]
set format x "%g"
set xtics (1024, 2048, 4096, 8192, 16384)
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set ytics 1
set key below nobox
$p0s0 << EOD
1024 0.1722093344
2048 0.5571751387
4096 1.015359458
8192 1.545502455
16384 2.093130346
EOD
$p0s1 << EOD
1024 0.2174302605
2048 0.6471806426
4096 1.502650216
8192 2.521132997
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "blockwise", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "dense"
reset
set title "peak RSS"
set xlabel "L (tokens)"
set ylabel "MB"
set format y "10^{%g}"
set logscale x
set format x "10^{%L}"
set grid
set xrange [1024:16384]
set format x "%g"
set xtics (1024, 2048, 4096, 8192, 16384)
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set ytics ("500" 2.6989700043360187, "1000" 3, "2000" 3.3010299956639813, "5000" 3.6989700043360187, "10000" 4, "20000" 4.3010299956639813)
set key below nobox
$p1s0 << EOD
1024 2.565741777
2048 2.712472129
4096 2.863908094
8192 3.168746012
16384 3.363171852
EOD
$p1s1 << EOD
1024 2.749250046
2048 3.12198023
4096 3.561141463
8192 4.253297675
EOD
plot $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "blockwise", \
     $p1s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "dense"
unset multiplot
unset output
