set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1140,420
set output "seeds_depth.svg"
set multiplot layout 1,3
reset
set title "L = 32 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
0 1 1 1
10 1 1 1
20 0.9966666667 0.9823244909 1
30 0.9933333333 0.9646489818 1
40 0.9966666667 0.9823244909 1
50 1 1 1
60 0.9933333333 0.9789911576 1
70 1 1 1
80 0.9966666667 0.9823244909 1
90 1 1 1
100 0.9966666667 0.9823244909 1
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
reset
set title "L = 64 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p1s0 << EOD
0 0.77 0.6188958021 0.9211041979
10 0.9333333333 0.8708172385 0.9958494281
20 0.9333333333 0.832938103 1
30 0.93 0.8306344915 1
40 0.9833333333 0.9316218832 1
50 0.9466666667 0.8526187308 1
60 0.9566666667 0.8694266173 1
70 0.96 0.9103172458 1
80 0.9833333333 0.9689911576 0.9976755091
90 0.98 0.9551586229 1
100 1 1 1
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
reset
set title "L = 128 (band cut to [0, 1])"
set xlabel "depth of the queried pair (%)"
set ylabel "exact-match accuracy"
set grid
set xrange [0:100]
set yrange [0:1.02]
set key below nobox
$p2s0 << EOD
0 0.8533333333 0.6788532346 1
10 0.8033333333 0.4725292538 1
20 0.79 0.4149034312 1
30 0.87 0.6759826424 1
40 0.86 0.6230283655 1
50 0.9 0.810433141 0.989566859
60 0.9333333333 0.8759646303 0.9907020364
70 0.9433333333 0.8313173597 1
80 0.9666666667 0.9149552165 1
90 0.9666666667 0.9149552165 1
100 0.9966666667 0.9823244909 1
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset multiplot
unset output
