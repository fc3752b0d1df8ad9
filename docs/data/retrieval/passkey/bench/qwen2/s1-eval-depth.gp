set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1140,420
set output "s1-eval-depth.svg"
set multiplot layout 1,3
reset
set title "L = 64 (1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
0 1 0.9630065018 1
10 1 0.9630065018 1
20 1 0.9630065018 1
30 1 0.9630065018 1
40 1 0.9630065018 1
50 1 0.9630065018 1
60 1 0.9630065018 1
70 1 0.9630065018 1
80 1 0.9630065018 1
90 1 0.9630065018 1
100 1 0.9630065018 1
EOD
$p0s1 << EOD
0 1
10 1
20 1
30 1
40 1
50 1
60 1
70 1
80 1
90 1
100 1
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "accuracy (Wilson 95%)", \
     $p0s1 using 1:2 with lines dt 2 lw 1 lc rgb "#009e73" title "chance 1/K"
reset
set title "L = 128 (1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p1s0 << EOD
0 0.09 0.04807254 0.1622621285
10 0.34 0.254615208 0.4372227115
20 0.29 0.2101483575 0.3853889118
30 0.48 0.3846455176 0.5768342223
40 0.03 0.01025452402 0.08451936429
50 0.06 0.02778612396 0.1247681545
60 0.19 0.1251475151 0.2777884538
70 0.77 0.6784561698 0.8415673412
80 0.92 0.850018923 0.9589065385
90 0.89 0.813687035 0.9374580364
100 0.56 0.4622810465 0.6532797337
EOD
$p1s1 << EOD
0 1
10 1
20 1
30 1
40 1
50 1
60 1
70 1
80 1
90 1
100 1
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "accuracy (Wilson 95%)", \
     $p1s1 using 1:2 with lines dt 2 lw 1 lc rgb "#009e73" title "chance 1/K"
reset
set title "L = 256 (1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p2s0 << EOD
0 0 0 0.03699349821
10 0 0 0.03699349821
20 0 0 0.03699349821
30 0 0 0.03699349821
40 0 0 0.03699349821
50 0 0 0.03699349821
60 0.05 0.02154367915 0.1117504692
70 0.22 0.1500128238 0.3107035351
80 0.02 0.00550196755 0.07001179073
90 0.51 0.4134801193 0.6057800107
100 0.24 0.1669132556 0.3323233635
EOD
$p2s1 << EOD
0 1
10 1
20 1
30 1
40 1
50 1
60 1
70 1
80 1
90 1
100 1
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "accuracy (Wilson 95%)", \
     $p2s1 using 1:2 with lines dt 2 lw 1 lc rgb "#009e73" title "chance 1/K"
unset multiplot
unset output
