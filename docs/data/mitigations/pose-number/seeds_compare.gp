set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1200,540
set output "seeds_compare.svg"
reset
set title "number task: accuracy (all hops) against input length, per configuration (95% t band over seeds)"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set logscale x
set format x "10^{%L}"
set grid
set xrange [17:850]
set format x "%g"
set xtics (17, 32, 64, 128, 256, 512, 850)
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
17 1 1 1
32 0.2291666667 0.2009910435 0.2573422898
64 0.1254166667 0.09741267326 0.1534206601
128 0.12375 0.07406724576 0.1734327542
256 0.095 0.0519734727 0.1380265273
512 0.07916666667 0.05627808636 0.102055247
850 0.06625 0.04896113322 0.08353886678
EOD
$p0s1 << EOD
17 0.3783333333 0.225158829 0.5315078377
32 0.1079166667 0.09793493478 0.1178983986
64 0.065 0.03846939761 0.09153060239
128 0.0425 0.02076379502 0.06423620498
256 0.03916666667 0.01920320289 0.05913013045
512 0.02875 0.01231897348 0.04518102652
850 0.02625 0.01693448358 0.03556551642
EOD
$p0s2 << EOD
17 0.125
32 0.125
64 0.125
128 0.125
256 0.125
512 0.125
850 0.125
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "baseline (3 seeds)", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#009e73" notitle, \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "pose 1024 (3 seeds)", \
     $p0s2 using 1:2 with lines dt 2 lw 1 lc rgb "#56b4e9" title "chance (a uniform guess among the input's candidates)"
unset output
