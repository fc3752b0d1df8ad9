set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "number-seeds_discrepancy.svg"
reset
set title "number task, standard inputs: key-head gap against length (3 training seeds, 95% t band)"
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
32 0.9572705825 0.5520264144 1.362514751
64 0.847658813 0.7739683608 0.9213492652
128 0.7691490129 0.3250920996 1.213205926
256 0.574394385 0.1877282592 0.9610605108
512 0.4948703448 0.3230528586 0.666687831
850 0.4500959242 0.2795187712 0.6206730773
EOD
$p0s1 << EOD
17 0.5211612384 0.2017822684 0.8405402083
32 0.5184212526 0.2605839475 0.7762585577
64 0.4423063596 0.4339505222 0.450662197
128 0.3493418694 0.2044065457 0.494277193
256 0.2128574053 0.1137770642 0.3119377465
512 0.1565378507 0.1020214047 0.2110542967
850 0.1616889636 0.142385026 0.1809929012
EOD
$p0s2 << EOD
17 1 1 1
32 0.23 0.2051586229 0.2548413771
64 0.1566666667 0.06942661732 0.243906716
128 0.09333333333 0.0646489818 0.1220176849
256 0.11 0 0.223837491
512 0.07666666667 0.01415057187 0.1391827615
850 0.05666666667 0.01872083633 0.094612497
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "most positional head", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#009e73" notitle, \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "most symbolic head", \
     $p0s2 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#56b4e9" notitle, \
     $p0s2 using 1:2 axes x1y2 with lines dt 2 lw 1 lc rgb "#56b4e9" title "accuracy"
unset output
