set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1200,540
set output "letter_compare.svg"
reset
set title "letter task: accuracy (all hops) against input length, per configuration (95% t band over seeds)"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set logscale x
set format x "10^{%L}"
set grid
set xrange [17:850]
set format x "%g"
set xtics (17, 64, 256, 850)
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
17 0.9995833333 0.9977905614 1.001376105
64 1 1 1
256 0.9995833333 0.9977905614 1.001376105
850 0.9979166667 0.9961238947 0.9997094386
EOD
$p0s1 << EOD
17 1 1 1
64 1 1 1
256 1 1 1
850 0.9979166667 0.9931734379 1.002659895
EOD
$p0s2 << EOD
17 0.9995833333 0.9977905614 1.001376105
64 0.9995833333 0.9977905614 1.001376105
256 0.9991666667 0.9955811227 1.002752211
850 0.9866666667 0.9637780864 1.009555247
EOD
$p0s3 << EOD
17 1 1 1
64 0.99875 0.9956448279 1.001855172
256 0.9529166667 0.8578490269 1.02
850 0.4475 0.2450913602 0.6499086398
EOD
$p0s4 << EOD
17 1 1 1
64 0.9995833333 0.9977905614 1.001376105
256 1 1 1
850 0.9991666667 0.9973738947 1.000959439
EOD
$p0s5 << EOD
17 1 1 1
64 1 1 1
256 0.9991666667 0.9973738947 1.000959439
850 0.9975 0.9921216841 1.002878316
EOD
$p0s6 << EOD
17 1 1 1
64 0.9995833333 0.9977905614 1.001376105
256 1 1 1
850 0.9979166667 0.9931734379 1.002659895
EOD
$p0s7 << EOD
17 0.1318764881
64 0.1318764881
256 0.1318764881
850 0.1318764881
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "default (rotary 16, θ 1e4) (3 seeds)", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#009e73" notitle, \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "rotary on 32 dims (3 seeds)", \
     $p0s2 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#56b4e9" notitle, \
     $p0s2 using 1:2 with linespoints lw 2 lc rgb "#56b4e9" title "rotary on 64 dims (3 seeds)", \
     $p0s3 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#e69f00" notitle, \
     $p0s3 using 1:2 with linespoints lw 2 lc rgb "#e69f00" title "rotary on every dim (128) (3 seeds)", \
     $p0s4 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#0072b2" notitle, \
     $p0s4 using 1:2 with linespoints lw 2 lc rgb "#0072b2" title "no positional encoding (3 seeds)", \
     $p0s5 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#e51e10" notitle, \
     $p0s5 using 1:2 with linespoints lw 2 lc rgb "#e51e10" title "θ 1e5 (3 seeds)", \
     $p0s6 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#000000" notitle, \
     $p0s6 using 1:2 with linespoints lw 2 lc rgb "#000000" title "θ 1e6 (3 seeds)", \
     $p0s7 using 1:2 with lines dt 2 lw 1 lc rgb "#a0522d" title "chance (a uniform guess among the input's candidates)"
unset output
