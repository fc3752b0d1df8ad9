set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "letter-seeds_discrepancy.svg"
reset
set title "letter task, standard inputs: key-head gap against length (3 training seeds, 95% t band)"
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
17 2.37929074 2.076299742 2.682281738
32 1.859296799 1.523368038 2.19522556
64 1.360744476 0.9386349949 1.782853958
128 0.9741721153 0.476192217 1.472152014
256 0.9000967344 0.6571376741 1.143055795
512 0.880788962 0.7796125715 0.9819653526
850 0.6551672618 0.2642474362 1.046087087
EOD
$p0s1 << EOD
17 11.88339026 9.550739201 14.21604131
32 11.37380131 6.844785888 15.90281673
64 10.01001986 6.033279552 13.98676017
128 9.858241161 4.896474978 14.82000734
256 8.889454405 4.83342903 12.94547978
512 9.017045975 5.22388615 12.8102058
850 8.787777901 5.434215342 12.14134046
EOD
$p0s2 << EOD
17 1 1 1
32 0.9966666667 0.9823244909 1.011008842
64 1 1 1
128 1 1 1
256 1 1 1
512 1 1 1
850 0.99 0.9469734727 1.02
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "most positional head", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#009e73" notitle, \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "most symbolic head", \
     $p0s2 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#56b4e9" notitle, \
     $p0s2 using 1:2 axes x1y2 with lines dt 2 lw 1 lc rgb "#56b4e9" title "accuracy"
unset output
