set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1150,540
set output "number-theta100000-seeds_eval.svg"
reset
set title "number task: accuracy against input length (3 training seeds, 95% t band)"
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
17 1
64 0.09
256 0.1016666667
850 0.06833333333
EOD
$p0s1 << EOD
17 1
64 0.1316666667
256 0.1
850 0.07666666667
EOD
$p0s2 << EOD
17 1
64 0.175
256 0.07666666667
850 0.07166666667
EOD
$p0s3 << EOD
17 1
64 0.1416666667
256 0.1
850 0.085
EOD
$p0s4 << EOD
17 1 1 1
64 0.1345833333 0.06709790967 0.202068757
256 0.09458333333 0.04786794744 0.1412987192
850 0.07541666667 0.03102971801 0.1198036153
EOD
$p0s5 << EOD
17 0.125
64 0.125
256 0.125
850 0.125
EOD
$p0s6 << EOD
17 1 1 1
64 0.1670833333 0 0.3914808132
256 0.03208333333 0 0.1143752772
850 0.009166666667 0.007373894696 0.01095943864
EOD
plot $p0s0 using 1:2 with linespoints lw 1 lc rgb "#9400d3" title "1-hop", \
     $p0s1 using 1:2 with linespoints lw 1 lc rgb "#009e73" title "2-hop", \
     $p0s2 using 1:2 with linespoints lw 1 lc rgb "#56b4e9" title "3-hop", \
     $p0s3 using 1:2 with linespoints lw 1 lc rgb "#e69f00" title "4-hop", \
     $p0s4 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#0072b2" notitle, \
     $p0s4 using 1:2 with linespoints lw 3 lc rgb "#0072b2" title "all hops", \
     $p0s5 using 1:2 with lines dt 2 lw 1 lc rgb "#e51e10" title "chance (a uniform guess among the input's candidates)", \
     $p0s6 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#000000" notitle, \
     $p0s6 using 1:2 with linespoints lw 3 lc rgb "#000000" title "all hops, seen\\_jumps control"
unset output
