set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 380,420
set output "eval-depth.svg"
reset
set title "L = 32 (4 pairs)"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
0 0.71 0.6146110882 0.7898516425
10 0.65 0.552544433 0.7363575176
20 0.76 0.6676766365 0.8330867444
30 0.78 0.6892964649 0.8499871762
40 0.81 0.7222115462 0.8748524849
50 0.73 0.6356788323 0.8073041585
60 0.66 0.5627772885 0.745384792
70 0.69 0.5937394428 0.7722030279
80 0.73 0.6356788323 0.8073041585
90 0.74 0.6462901055 0.8159530154
100 0.72 0.6251197129 0.7986031479
EOD
$p0s1 << EOD
0 0.25
10 0.25
20 0.25
30 0.25
40 0.25
50 0.25
60 0.25
70 0.25
80 0.25
90 0.25
100 0.25
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "accuracy (Wilson 95%)", \
     $p0s1 using 1:2 with lines dt 2 lw 1 lc rgb "#009e73" title "chance 1/n"
unset output
