set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1140,420
set output "qwen2-4x64-L32-eval-depth.svg"
set multiplot layout 1,3
reset
set title "L = 32 (4 pairs)"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
0 0.92 0.850018923 0.9589065385
10 0.86 0.7786281179 0.9147365634
20 0.92 0.850018923 0.9589065385
30 0.92 0.850018923 0.9589065385
40 0.94 0.8752318455 0.972213876
50 0.9 0.8256343385 0.9447708629
60 0.9 0.8256343385 0.9447708629
70 0.89 0.813687035 0.9374580364
80 0.87 0.7901964856 0.9224283257
90 0.89 0.813687035 0.9374580364
100 0.87 0.7901964856 0.9224283257
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
reset
set title "L = 64 (10 pairs)"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p1s0 << EOD
0 0 0 0.03699349821
10 0.01 0.001767432064 0.05448619618
20 0.01 0.001767432064 0.05448619618
30 0 0 0.03699349821
40 0.01 0.001767432064 0.05448619618
50 0.05 0.02154367915 0.1117504692
60 0 0 0.03699349821
70 0.1 0.05522913706 0.1743656615
80 0.11 0.06254196357 0.186312965
90 0.09 0.04807254 0.1622621285
100 0.08 0.04109346148 0.149981077
EOD
$p1s1 << EOD
0 0.1
10 0.1
20 0.1
30 0.1
40 0.1
50 0.1
60 0.1
70 0.1
80 0.1
90 0.1
100 0.1
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "accuracy (Wilson 95%)", \
     $p1s1 using 1:2 with lines dt 2 lw 1 lc rgb "#009e73" title "chance 1/n"
reset
set title "L = 128 (20 pairs)"
set xlabel "depth of the queried pair (%)"
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
90 0.05 0.02154367915 0.1117504692
100 0.07 0.03431926107 0.1374951474
EOD
$p2s1 << EOD
0 0.05
10 0.05
20 0.05
30 0.05
40 0.05
50 0.05
60 0.05
70 0.05
80 0.05
90 0.05
100 0.05
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "accuracy (Wilson 95%)", \
     $p2s1 using 1:2 with lines dt 2 lw 1 lc rgb "#009e73" title "chance 1/n"
unset multiplot
unset output
