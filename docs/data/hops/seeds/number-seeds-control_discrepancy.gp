set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "number-seeds-control_discrepancy.svg"
reset
set title "number task, seen\\_jumps inputs: key-head gap against length (3 training seeds, 95% t band)"
set xlabel "input length (tokens, log scale)"
set ylabel "median top − second attention logit at the query"
set logscale x
set format x "10^{%L}"
set grid
set xrange [17:850]
set format x "%g"
set xtics (17, 32, 64, 128, 256, 512, 850)
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set ytics nomirror
set y2tics
set y2label "accuracy"
set y2range [0:1.02]
set key below nobox
$p0s0 << EOD
17 4.938556182 4.394507078 5.482605286
32 1.704726319 0.3443578681 3.065094769
64 1.283265034 0.6158652859 1.950664783
128 0.9263989652 0.5291652441 1.323632686
256 0.7020935218 0.4061471959 0.9980398476
512 0.4757747253 0.2641830711 0.6873663795
850 0.374131759 0.2332100192 0.5150534988
EOD
$p0s1 << EOD
17 0.5211612384 0.2017822684 0.8405402083
32 0.5223468145 0.1478143417 0.8968792873
64 0.4961824417 0.3918368527 0.6005280308
128 0.3057209651 0.06255533152 0.5488865986
256 0.2177705765 0.07984238175 0.3556987712
512 0.2111040751 0.07226390287 0.3499442474
850 0.2120196025 -0.06203092615 0.4860701311
EOD
$p0s2 << EOD
17 1 1 1
32 0.3933333333 0.2565176964 0.5301489703
64 0.22 0.1769734727 0.2630265273
128 0.02666666667 0 0.064612497
256 0.006666666667 0 0.0353510182
512 0 0 0
850 0 0 0
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "most positional head", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#009e73" notitle, \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "most symbolic head", \
     $p0s2 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#56b4e9" notitle, \
     $p0s2 using 1:2 axes x1y2 with lines dt 2 lw 1 lc rgb "#56b4e9" title "accuracy"
unset output
