set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "seed1-eval.svg"
reset
set title "number model: accuracy against input length"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set logscale x
set format x "10^{%L}"
set grid
set xrange [17:1024]
set format x "%g"
set xtics (17, 256, 512, 1024)
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
17 0.07
256 0.115
512 0.12
1024 0.12
EOD
$p0s1 << EOD
17 0.06
256 0.095
512 0.105
1024 0.075
EOD
$p0s2 << EOD
17 0.07
256 0.1
512 0.095
1024 0.11
EOD
$p0s3 << EOD
17 0.075
256 0.13
512 0.105
1024 0.115
EOD
$p0s4 << EOD
17 0.06875
256 0.11
512 0.10625
1024 0.105
EOD
$p0s5 << EOD
17 0.125
256 0.125
512 0.125
1024 0.125
EOD
$p0s6 << EOD
17 0.06875
256 0.0125
512 0.01
1024 0.01125
EOD
plot $p0s0 using 1:2 with linespoints lw 1 lc rgb "#9400d3" title "1-hop", \
     $p0s1 using 1:2 with linespoints lw 1 lc rgb "#009e73" title "2-hop", \
     $p0s2 using 1:2 with linespoints lw 1 lc rgb "#56b4e9" title "3-hop", \
     $p0s3 using 1:2 with linespoints lw 1 lc rgb "#e69f00" title "4-hop", \
     $p0s4 using 1:2 with linespoints lw 3 lc rgb "#0072b2" title "all hops", \
     $p0s5 using 1:2 with lines dt 2 lw 1 lc rgb "#e51e10" title "chance (a uniform guess among the input's candidates)", \
     $p0s6 using 1:2 with linespoints lw 3 lc rgb "#000000" title "all hops, seen\\_jumps control"
unset output
