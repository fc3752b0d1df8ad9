set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "letter-seeds-control_discrepancy.svg"
reset
set title "letter task, decoy inputs: key-head gap against length (3 training seeds, 95% t band)"
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
17 2.517895699 1.880954087 3.15483731
32 2.017669837 1.210842662 2.824497011
64 1.868470033 1.352267594 2.384672472
128 1.15381972 0.08950759589 2.218131844
256 0.9731928507 0.9336933308 1.012692371
512 0.7873252233 0.3555062822 1.219144164
850 0.6374483109 0.2306332851 1.044263337
EOD
$p0s1 << EOD
17 11.48919797 8.996234638 13.9821613
32 11.49350333 7.477942606 15.50906406
64 10.34955517 5.963678776 14.73543157
128 9.585771441 6.14426215 13.02728073
256 10.10956295 5.875063977 14.34406193
512 9.538996498 5.887231007 13.19076199
850 8.80327936 6.000275792 11.60628293
EOD
$p0s2 << EOD
17 1 1 1
32 0.9966666667 0.9823244909 1.011008842
64 1 1 1
128 0.9933333333 0.9789911576 1.007675509
256 0.9933333333 0.9646489818 1.02
512 1 1 1
850 0.9966666667 0.9823244909 1.011008842
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "most positional head", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#009e73" notitle, \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "most symbolic head", \
     $p0s2 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#56b4e9" notitle, \
     $p0s2 using 1:2 axes x1y2 with lines dt 2 lw 1 lc rgb "#56b4e9" title "accuracy"
unset output
