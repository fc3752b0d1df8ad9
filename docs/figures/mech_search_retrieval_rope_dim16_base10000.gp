set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "mech_search_retrieval_rope_dim16_base10000.svg"
reset
set title "retrieval head search: rope frequencies, head dim 16; exponent of the best gap -0.92 [-2.75, 0.91]"
set xlabel "input length n (log scale)"
set ylabel "worst-case gap: top − second logit (at or below 0: the head fails)"
set logscale x
set format x "10^{%L}"
set grid
set xrange [16:16384]
set format x "%g"
set xtics (16, 64, 256, 1024, 4096, 16384)
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p0s0 << EOD
16 1.105621925
64 1.069482699
256 0.8975291575
1024 0.6406848222
4096 0.01693911253
16384 -2.140255636e-05
EOD
$p0s1 << EOD
16 0.2895372844
64 0.2787550493
256 0.2350089298
1024 0.05302013607
4096 -0.7276412276
16384 -1.999999991
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "best of 8 starts and the designs", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "construction"
unset output
