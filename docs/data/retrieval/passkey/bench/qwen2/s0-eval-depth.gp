set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1140,420
set output "s0-eval-depth.svg"
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
0 0 0 0.03699349821
10 0 0 0.03699349821
20 0 0 0.03699349821
30 0.01 0.001767432064 0.05448619618
40 0.01 0.001767432064 0.05448619618
50 0.17 0.1089356611 0.2554800477
60 0.97 0.9154806357 0.989745476
70 0.97 0.9154806357 0.989745476
80 0.94 0.8752318455 0.972213876
90 0.99 0.9455138038 0.9982325679
100 0.94 0.8752318455 0.972213876
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
0 0.12 0.06999406437 0.1981209943
10 0 0 0.03699349821
20 0 0 0.03699349821
30 0 0 0.03699349821
40 0 0 0.03699349821
50 0 0 0.03699349821
60 0 0 0.03699349821
70 0 0 0.03699349821
80 0.19 0.1251475151 0.2777884538
90 0.98 0.9299882093 0.9944980324
100 0.88 0.8018790057 0.9300059356
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
