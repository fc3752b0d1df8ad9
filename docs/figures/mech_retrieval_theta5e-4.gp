set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 700,540
set output "mech_retrieval_theta5e-4.svg"
reset
set title "retrieval construction (letter inputs, θ = 0.000500)"
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
9 -0.5380239092
16 -0.5417262768
32 -0.5502586341
64 -0.5676213807
128 -0.6035967517
256 -0.6810705806
512 -0.8636319653
1024 -1.430145665
EOD
$p0s1 << EOD
9 -0.5375056727
16 -0.541228137
32 -0.5498844055
64 -0.5677240094
128 -0.6061655533
256 -0.6962014754
512 -0.9677035353
1024 -3.868498414
2048 -6.992096117
4096 -7.808100939
EOD
$p0s2 << EOD
9 1
16 1
32 1
64 1
128 1
256 1
512 1
1024 0.5625
2048 0
4096 0
EOD
plot $p0s0 using 1:2 with lines lw 2 lc rgb "#9400d3" title "rate 1 − cos(ω − nθ)", \
     $p0s1 using 1:2 with points lw 2 lc rgb "#009e73" title "measured", \
     $p0s2 using 1:2 axes x1y2 with linespoints lw 2 lc rgb "#56b4e9" title "accuracy (right axis)"
unset output
