set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "mech_search_retrieval_free_dim16.svg"
reset
set title "retrieval head search: free frequencies, head dim 16; exponent of the best gap -0.00 [-0.00, 0.00]"
set xlabel "input length n (log scale)"
set ylabel "worst-case gap: top − second logit (log10)"
set key bottom left box opaque
set grid
set format y "10^{%g}"
set logscale x
set format x "10^{%L}"
$p0s0 << EOD
16 0.05799193515
64 0.05799194684
256 0.05799194619
1024 0.05799194349
4096 0.05799193268
16384 0.05799188943
EOD
$p0s1 << EOD
16 -0.5332906832
64 -0.5332906832
256 -0.5332906832
1024 -0.5332906832
4096 -0.5332906832
16384 -0.5332906832
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc 1 title "best of 8 starts and the designs", \
     $p0s1 using 1:2 with linespoints lw 2 lc 2 title "construction"
unset output
