set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "mech_search_retrieval_rope_dim16_base10000.svg"
reset
set title "retrieval head search: rope frequencies, head dim 16; exponent of the best gap -0.92 [-2.75, 0.91]"
set xlabel "input length n (log scale)"
set ylabel "worst-case gap: top − second logit (log10)"
set key bottom left box opaque
set grid
set format y "10^{%g}"
set logscale x
set format x "10^{%L}"
$p0s0 << EOD
16 0.04360664238
64 0.0291737634
256 -0.04695143387
1024 -0.1933555643
4096 -1.771109347
EOD
$p0s1 << EOD
16 -0.5382955032
64 -0.5547772572
256 -0.6289156352
1024 -1.275559162
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc 1 title "best of 8 starts and the designs", \
     $p0s1 using 1:2 with linespoints lw 2 lc 2 title "construction"
unset output
