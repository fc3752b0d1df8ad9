set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "letter-theta100000-seeds_eval.svg"
reset
set title "letter task: accuracy against input length (3 training seeds, 95% t band)"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set key top right box opaque
set grid
set logscale x
set format x "10^{%L}"
set yrange [0.000000:1.020000]
$p0s0 << EOD
17 1 1 1
64 1 1 1
256 1 1 1
850 0.995 0.9734867364 1.016513264
EOD
$p0s1 << EOD
17 1 1 1
64 1 1 1
256 1 1 1
850 1 1 1
EOD
$p0s2 << EOD
17 1 1 1
64 1 1 1
256 1 1 1
850 0.9983333333 0.9911622455 1.005504421
EOD
$p0s3 << EOD
17 1 1 1
64 1 1 1
256 0.9966666667 0.9894955788 1.003837755
850 0.9966666667 0.9894955788 1.003837755
EOD
$p0s4 << EOD
17 1 1 1
64 1 1 1
256 0.9991666667 0.9973738947 1.000959439
850 0.9975 0.9921216841 1.002878316
EOD
$p0s5 << EOD
17 0.1318764881
64 0.1318764881
256 0.1318764881
850 0.1318764881
EOD
$p0s6 << EOD
17 0.9995833333 0.9977905614 1.001376105
64 0.9995833333 0.9977905614 1.001376105
256 0.9979166667 0.9943311227 1.001502211
850 0.9945833333 0.9927905614 0.9963761053
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
