set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "number-rd128-seeds_eval.svg"
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
64 0.1183333333 -0.004206270126 0.2408729368
256 0.075 0.06257931144 0.08742068856
850 0.06166666667 0.002968782587 0.1203645507
EOD
$p0s1 << EOD
17 1 1 1
64 0.1416666667 0.04127143631 0.242061897
256 0.08333333333 0.05207528594 0.1145913807
850 0.055 0.03348673635 0.07651326365
EOD
$p0s2 << EOD
17 1 1 1
64 0.1133333333 0.1061622455 0.1205044212
256 0.07833333333 0.07116224545 0.08550442122
850 0.045 0.01213794696 0.07786205304
EOD
$p0s3 << EOD
17 1 1 1
64 0.1183333333 0.080387503 0.1562791637
256 0.085 0.07257931144 0.09742068856
850 0.05166666667 0.0258109416 0.07752239173
EOD
$p0s4 << EOD
17 1 1 1
64 0.1229166667 0.105814712 0.1400186213
256 0.08041666667 0.07567343787 0.08515989546
850 0.05333333333 0.0246489818 0.08201768486
EOD
$p0s5 << EOD
17 0.125
64 0.125
256 0.125
850 0.125
EOD
$p0s6 << EOD
17 1 1 1
64 0.56125 0.4989141043 0.6235858957
256 0.07083333333 0.01801497287 0.1236516938
850 0.01958333333 0.01009687575 0.02906979092
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
