set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "mech_search_index_rope_dim16.svg"
reset
set title "index head search: rope frequencies, head dim 16; exponent of the best gap -0.15 [-0.17, -0.12]"
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
16 -0.4612433147
32 -0.5470355006
64 -0.5923176754
128 -0.6417583673
256 -0.6831233242
512 -0.716670197
850 -0.7655260645
EOD
$p0s1 << EOD
16 -2.301391938
32 -2.301391938
64 -3.301066187
128 -3.301066187
256 -4.301033615
512 -5.301030358
850 -5.301030358
EOD
$p0s2 << EOD
16 -1.304652137
32 -2.301391938
64 -3.849662353
128 -3.301066187
256 -4.323270422
512 -4.301033615
850 -5.294727722
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
