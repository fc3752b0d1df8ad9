set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1140,420
set output "s2-eval-depth.svg"
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
0 0 0 0.03699349821
10 0 0 0.03699349821
20 0 0 0.03699349821
30 0 0 0.03699349821
40 0 0 0.03699349821
50 0 0 0.03699349821
60 0 0 0.03699349821
70 0 0 0.03699349821
80 0 0 0.03699349821
90 0 0 0.03699349821
100 0 0 0.03699349821
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
30 0 0 0.03699349821
40 0 0 0.03699349821
50 0 0 0.03699349821
60 0 0 0.03699349821
70 0 0 0.03699349821
80 0 0 0.03699349821
90 0 0 0.03699349821
100 0 0 0.03699349821
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
60 0 0 0.03699349821
70 0 0 0.03699349821
80 0 0 0.03699349821
90 0 0 0.03699349821
100 0 0 0.03699349821
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
