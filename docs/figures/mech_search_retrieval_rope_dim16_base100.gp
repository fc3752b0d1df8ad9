set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "mech_search_retrieval_rope_dim16_base100.svg"
reset
set title "retrieval head search: rope frequencies, head dim 16"
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
16 0.8906215702
64 0.3524447189
256 -6.502612789e-05
1024 -1.885952975e-05
4096 -1.250542587e-05
16384 -7.123753454e-06
EOD
$p0s1 << EOD
16 0.1006833375
64 -0.564597666
256 -1.999977861
1024 -1.999999993
4096 -1.999999993
16384 -1.999999994
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "best of 8 starts and the designs", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "construction"
unset output
