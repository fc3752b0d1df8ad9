set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "gpt2-seed0-birth_shape.svg"
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
1 -1.889598248
2 -1.890695695
3 -1.903711268
4 -1.927118611
7 -1.974193043
12 -1.989794668
21 -1.954439529
37 -1.867295766
66 -1.812899345
101 -1.803278839
118 -1.814029457
201 -1.707656841
214 -1.71614548
301 -1.605387437
387 -1.798601633
401 -1.815912453
501 -1.793783108
601 -1.853765756
701 -1.896655117
EOD
$p0s1 << EOD
1 -1.985217372
2 -1.986864902
3 -1.993352508
4 -2.00588995
7 -2.036375496
12 -2.033825728
21 -2.018228891
37 -1.945620644
66 -1.916155877
101 -1.918607155
118 -1.935158209
201 -1.952106091
214 -1.924776491
301 -1.925746187
387 -1.975052588
401 -2.025732023
501 -2.051179314
601 -2.215968518
701 -2.213886737
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "middle / mean of the ends", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "dead zone (argmin) / mean of the ends"
unset output
