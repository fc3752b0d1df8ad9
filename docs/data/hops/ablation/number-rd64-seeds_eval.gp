set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "number-rd64-seeds_eval.svg"
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
64 0.1233333333 -0.05508125795 0.3017479246
256 0.08333333333 0.02596463027 0.1407020364
850 0.06666666667 -0.001741151817 0.1350744851
EOD
$p0s1 << EOD
17 1 1 1
64 0.115 0.09015862288 0.1398413771
256 0.08666666667 0.0676937515 0.1056395818
850 0.06333333333 0.01971330866 0.106953358
EOD
$p0s2 << EOD
17 1 1 1
64 0.1216666667 0.08581122725 0.1575221061
256 0.07333333333 0.02971330866 0.116953358
850 0.05833333333 0.03936041817 0.0773062485
EOD
$p0s3 << EOD
17 1 1 1
64 0.1366666667 0.03704272991 0.2362906034
256 0.075 0.0180812545 0.1319187455
850 0.06166666667 -0.00207135662 0.12540469
EOD
$p0s4 << EOD
17 1 1 1
64 0.1241666667 0.06588089546 0.1824524379
256 0.07958333333 0.06061041817 0.0985562485
850 0.0625 0.0314482786 0.0935517214
EOD
$p0s5 << EOD
17 0.125
64 0.125
256 0.125
850 0.125
EOD
$p0s6 << EOD
17 1 1 1
64 0.4904166667 0.3671318168 0.6137015165
256 0.11125 -0.06777603306 0.2902760331
850 0.01125 0.00303448674 0.01946551326
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
