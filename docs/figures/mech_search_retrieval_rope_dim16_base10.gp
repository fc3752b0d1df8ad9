set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "mech_search_retrieval_rope_dim16_base10.svg"
reset
set title "retrieval head search: rope frequencies, head dim 16"
set xlabel "input length n (log scale)"
set ylabel "worst-case gap: top − second logit (log10)"
set key bottom left box opaque
set grid
set format y "10^{%g}"
set logscale x
set format x "10^{%L}"
$p0s0 << EOD
16 -0.7285326533
EOD
$p0s1 << EOD
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc 1 title "best of 8 starts and the designs", \
     $p0s1 using 1:2 with linespoints lw 2 lc 2 title "construction"
unset output
