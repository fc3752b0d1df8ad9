set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "number-theta1000000-seeds_eval.svg"
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
64 0.08333333333 0.03971330866 0.126953358
256 0.06166666667 0.000396864937 0.1229364684
850 0.06333333333 0.03747760827 0.0891890584
EOD
$p0s1 << EOD
17 1 1 1
64 0.1033333333 0.04463544925 0.1620312174
256 0.065 -0.01055209897 0.140552099
850 0.06166666667 0.02173973911 0.1015935942
EOD
$p0s2 << EOD
17 0.9816666667 0.9314690515 1.031864282
64 0.1033333333 0.07747760827 0.1291890584
256 0.05166666667 0.0326937515 0.07063958183
850 0.06 0.03515862288 0.08484137712
EOD
$p0s3 << EOD
17 0.9666666667 0.8938880733 1.03944526
64 0.09333333333 0.055387503 0.1312791637
256 0.07833333333 0.03471330866 0.121953358
850 0.06666666667 -0.001741151817 0.1350744851
EOD
$p0s4 << EOD
17 0.9870833333 0.9572456612 1.016921006
64 0.09583333333 0.06765771017 0.1240089565
256 0.06416666667 0.02423973911 0.1040935942
850 0.06291666667 0.0340647323 0.09176860104
EOD
$p0s5 << EOD
17 0.125
64 0.125
256 0.125
850 0.125
EOD
$p0s6 << EOD
17 0.9870833333 0.9572456612 1.016921006
64 0.2066666667 0.1616327486 0.2517005847
256 0.1245833333 -0.02080815238 0.269974819
850 0.06833333333 -0.05704540202 0.1937120687
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
