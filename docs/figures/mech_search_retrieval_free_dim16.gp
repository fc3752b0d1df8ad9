set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "mech_search_retrieval_free_dim16.svg"
reset
set title "retrieval head search: free frequencies, head dim 16; exponent of the best gap -0.00 [-0.00, 0.00]"
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
16 1.142857112
64 1.142857143
256 1.142857141
1024 1.142857134
4096 1.142857105
16384 1.142856991
EOD
$p0s1 << EOD
16 0.2928932188
64 0.2928932188
256 0.2928932188
1024 0.2928932188
4096 0.2928932188
16384 0.2928932188
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "best of 8 starts and the designs", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "construction"
unset output
