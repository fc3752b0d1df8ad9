set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 700,540
set output "mech_reflexive.svg"
reset
set title "reflexive construction (number inputs, θ = pi/n); slope over n = 64..4096: -2.000"
set xlabel "input length n (log scale)"
set ylabel "discrepancy: top − second logit (min over inputs)"
set key bottom left box opaque
set grid
set format y "10^{%g}"
set logscale x
set format x "10^{%L}"
set ytics nomirror
set y2tics
set y2label "accuracy"
set y2range [0.000000:1.050000]
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
plot $p0s0 using 1:2 with lines lw 2 lc 1 title "bound min(1 − cos θ, π²/(2n²))", \
     $p0s1 using 1:2 with points lw 2 lc 2 title "measured", \
     $p0s2 using 1:2 axes x1y2 with linespoints lw 2 lc 3 title "accuracy (right axis)"
unset output
