set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "number-rd32-seeds_eval.svg"
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
64 0.1166666667 -0.06088112795 0.2942144613
256 0.09666666667 0.05304664199 0.1402866913
850 0.06166666667 0.02173973911 0.1015935942
EOD
$p0s1 << EOD
17 1 1 1
64 0.135 0.08085947376 0.1891405262
256 0.07 0.02521657052 0.1147834295
850 0.04833333333 0.008406405776 0.08826026089
EOD
$p0s2 << EOD
17 1 1 1
64 0.1316666667 0.1126937515 0.1506395818
256 0.07833333333 -0.0115201403 0.168186807
850 0.08333333333 0.01959531005 0.1470713566
EOD
$p0s3 << EOD
17 1 1 1
64 0.1333333333 0.01593756517 0.2507291015
256 0.08666666667 0.05081122725 0.1225221061
850 0.07 0.04515862288 0.09484137712
EOD
$p0s4 << EOD
17 1 1 1
64 0.1291666667 0.061681243 0.1966520903
256 0.08291666667 0.05423231514 0.1116010182
850 0.06583333333 0.02827058905 0.1033960776
EOD
$p0s5 << EOD
17 0.125
64 0.125
256 0.125
850 0.125
EOD
$p0s6 << EOD
17 1 1 1
64 0.3741666667 0.2737234271 0.4746099062
256 0.06625 -0.01912811826 0.1516281183
850 0.01791666667 -0.01349523587 0.04932856921
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
