set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1150,540
set output "letter-seeds-L4096_eval.svg"
reset
set title "letter task: accuracy against input length (3 training seeds, 95% t band)"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set key outside right box opaque
set grid
set logscale x
set format x "10^{%L}"
set yrange [0.000000:1.020000]
$p0s0 << EOD
4096 1 1 1
EOD
$p0s1 << EOD
4096 1 1 1
EOD
$p0s2 << EOD
4096 1 1 1
EOD
$p0s3 << EOD
4096 0.9895833333 0.9671736837 1.011992983
EOD
$p0s4 << EOD
4096 0.9973958333 0.9917934209 1.002998246
EOD
$p0s5 << EOD
4096 0.1327101935
EOD
$p0s6 << EOD
4096 0.9700520833 0.9212113843 1.018892782
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p0s0 using 1:2 with linespoints lw 1 lc 1 title "1-hop", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 2 notitle, \
     $p0s1 using 1:2 with linespoints lw 1 lc 2 title "2-hop", \
     $p0s2 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 3 notitle, \
     $p0s2 using 1:2 with linespoints lw 1 lc 3 title "3-hop", \
     $p0s3 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 4 notitle, \
     $p0s3 using 1:2 with linespoints lw 1 lc 4 title "4-hop", \
     $p0s4 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 5 notitle, \
     $p0s4 using 1:2 with linespoints lw 3 lc 5 title "all hops", \
     $p0s5 using 1:2 with lines dt 2 lw 1 lc 6 title "chance (a uniform guess among the input's candidates)", \
     $p0s6 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 7 notitle, \
     $p0s6 using 1:2 with linespoints lw 3 lc 7 title "all hops, decoy control"
unset output
