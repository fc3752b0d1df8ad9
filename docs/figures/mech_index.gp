set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 700,540
set output "mech_index.svg"
reset
set title "index construction (number inputs, θ = pi/n); slope over n = 64..4096: -2.000"
set xlabel "input length n (log scale)"
set ylabel "discrepancy: top − second logit (min over inputs)"
set format y "10^{%g}"
set logscale x
set format x "10^{%L}"
set grid
set xrange [9:4096]
set format x "%g"
set xtics (9, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set ytics 1
set ytics nomirror
set y2tics
set y2label "accuracy"
set y2range [0:1.05]
set key below nobox
$p0s0 << EOD
9 -1.219629544
16 -1.716365949
32 -2.317379056
64 -2.919177405
128 -3.521171991
256 -4.123215631
512 -4.725271535
1024 -5.327330504
2048 -5.92939024
4096 -6.531450168
EOD
$p0s1 << EOD
9 -1.219629544
16 -1.716365949
32 -2.317379056
64 -2.919177405
128 -3.521171991
256 -4.123215631
512 -4.725271535
1024 -5.327330504
2048 -5.92939024
4096 -6.531450168
EOD
$p0s2 << EOD
9 1
16 1
32 1
64 1
128 1
256 1
512 1
1024 1
2048 1
4096 1
EOD
plot $p0s0 using 1:2 with lines lw 2 lc rgb "#9400d3" title "bound min(1 − cos θ, π²/(2n²))", \
     $p0s1 using 1:2 with points lw 2 lc rgb "#009e73" title "measured", \
     $p0s2 using 1:2 axes x1y2 with linespoints lw 2 lc rgb "#56b4e9" title "accuracy (right axis)"
unset output
