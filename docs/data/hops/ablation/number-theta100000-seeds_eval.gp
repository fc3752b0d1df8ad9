set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "number-theta100000-seeds_eval.svg"
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
17 1 1 1
64 0.09 0.01444790103 0.165552099
256 0.1016666667 0.03792864338 0.16540469
850 0.06833333333 0.01662188321 0.1200447835
EOD
$p0s1 << EOD
17 1 1 1
64 0.1316666667 0.06103964182 0.2022936915
256 0.1 0.05521657052 0.1447834295
850 0.07666666667 0.01539686494 0.1379364684
EOD
$p0s2 << EOD
17 1 1 1
64 0.175 0.09743282481 0.2525671752
256 0.07666666667 0.0192979636 0.1340353697
850 0.07166666667 0.04040861927 0.1029247141
EOD
$p0s3 << EOD
17 1 1 1
64 0.1416666667 0.09464269872 0.1886906346
256 0.1 0.03789655721 0.1621034428
850 0.085 0.0280812545 0.1419187455
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
64 0.1670833333 -0.05731414657 0.3914808132
256 0.03208333333 -0.05020861057 0.1143752772
850 0.009166666667 0.007373894696 0.01095943864
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
