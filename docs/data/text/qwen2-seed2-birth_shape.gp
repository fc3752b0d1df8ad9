set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "qwen2-seed2-birth_shape.svg"
reset
set title "middle and minimum against the ends (position 0, query) by step"
set xlabel "training step + 1"
set ylabel "log10 ratio"
set logscale x
set format x "10^{%L}"
set grid
set xrange [1:701]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p0s0 << EOD
1 -1.412953387
2 -1.413029044
3 -1.414170947
4 -1.416077429
7 -1.371776528
12 -1.34824507
21 -1.330258959
37 -1.593793422
66 -1.875375503
101 -1.806819328
118 -1.631002639
201 -1.790527127
214 -1.887706994
301 -1.890400272
387 -1.932972983
401 -1.950866579
501 -1.978472601
601 -1.916900217
701 -1.867776095
EOD
$p0s1 << EOD
1 -1.660275996
2 -1.661206631
3 -1.662509599
4 -1.659832555
7 -1.566639411
12 -1.462039702
21 -1.416602911
37 -1.726785446
66 -2.163536831
101 -2.111111076
118 -2.101995242
201 -2.033407257
214 -2.092814927
301 -2.083283599
387 -2.161299667
401 -2.122273408
501 -2.213497153
601 -2.177856197
701 -2.163876144
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "middle / mean of the ends", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "dead zone (argmin) / mean of the ends"
unset output
