set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "mech_search_index_free_dim8.svg"
reset
set title "index head search: free frequencies, head dim 8; exponent of the best gap -0.86 [-1.22, -0.49]"
set xlabel "input length n (log scale)"
set ylabel "worst-case gap: top − second logit (log scale)"
set format y "10^{%g}"
set logscale x
set format x "10^{%L}"
set grid
set xrange [16:850]
set format x "%g"
set xtics (16, 32, 64, 128, 256, 512, 850)
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set ytics 1
set key below nobox
$p0s0 << EOD
16 -0.1012606764
32 -0.2229893042
64 -0.3275110376
128 -0.5268847958
256 -0.6491455567
512 -1.145972
850 -1.236885947
EOD
$p0s1 << EOD
16 -1.716365949
32 -2.317379056
64 -2.919177405
128 -3.521171991
256 -4.123215631
512 -4.725271535
850 -5.165568596
EOD
$p0s2 << EOD
16 -1.118498553
32 -1.716365949
64 -2.317379056
128 -2.919177405
256 -3.521171991
512 -4.123215631
850 -4.563510088
EOD
$p0s3 << EOD
16 -1.714970216
32 -2.317030207
64 -2.919090198
128 -3.52115019
256 -4.123210181
512 -4.725270172
850 -5.165568102
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "best of 8 starts and the designs", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "construction θ = π/n: 1 − cos(π/n)", \
     $p0s2 using 1:2 with lines lw 2 lc rgb "#56b4e9" title "one frequency θ = 2π/n: 1 − cos(2π/n)", \
     $p0s3 using 1:2 with lines lw 2 lc rgb "#e69f00" title "bound π²/(2n²)"
unset output
