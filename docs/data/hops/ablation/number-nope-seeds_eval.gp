set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "number-nope-seeds_eval.svg"
reset
set title "number task: accuracy against input length (3 training seeds, 95% t band)"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set key top right box opaque
set grid
set logscale x
set format x "10^{%L}"
set yrange [0.000000:1.020000]
$p0s0 << EOD
17 0.22 0.1630812545 0.2769187455
64 0.055 0.005317245765 0.1046827542
256 0.035 -0.009783429475 0.07978342948
850 0.02166666667 -0.004189058396 0.04752239173
EOD
$p0s1 << EOD
17 0.09166666667 0.02325884818 0.1600744851
64 0.04666666667 0.01081122725 0.08252210608
256 0.03833333333 0.009648981802 0.06701768486
850 0.02 0.007579311441 0.03242068856
EOD
$p0s2 << EOD
17 0.105 0.0480812545 0.1619187455
64 0.08166666667 0.04581122725 0.1175221061
256 0.02833333333 0.02116224545 0.03550442122
850 0.01833333333 -0.007522391729 0.0441890584
EOD
$p0s3 << EOD
17 0.09166666667 0.0726937515 0.1106395818
64 0.08833333333 0.03232534652 0.1443413201
256 0.025 0.0001586228825 0.04984137712
850 0.03 0.01757931144 0.04242068856
EOD
$p0s4 << EOD
17 0.1270833333 0.1114543096 0.142712357
64 0.06791666667 0.0390647323 0.09676860104
256 0.03166666667 0.01634921623 0.0469841171
850 0.0225 0.01428448674 0.03071551326
EOD
$p0s5 << EOD
17 0.125
64 0.125
256 0.125
850 0.125
EOD
$p0s6 << EOD
17 0.1270833333 0.1114543096 0.142712357
64 0.02708333333 -0.007120575908 0.06128724257
256 0.01916666667 -0.005739317523 0.04407265086
850 0.01583333333 -0.001268621287 0.03293528795
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
     $p0s6 using 1:2 with linespoints lw 3 lc 7 title "all hops, seen\\_jumps control"
unset output
