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
0 0.37 0.06881430892 0.6711856911
10 0.4133333333 0.2959375652 0.5307291015
20 0.51 0.4851586229 0.5348413771
30 0.54 0.4085517878 0.6714482122
40 0.5266666667 0.4887208363 0.564612497
50 1 1 1
60 0.9966666667 0.9823244909 1
70 1 1 1
80 1 1 1
90 1 1 1
100 1 1 1
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
0 0 0 0
10 0 0 0
20 0 0 0
30 0 0 0
40 0 0 0
50 0.01 0.01 0.01
60 0.006666666667 0 0.02100884243
70 0.07 0 0.273335435
80 0.4466666667 0.03672121828 0.8566121151
90 0.9166666667 0.5581122725 1
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
0 0 0 0
10 0 0 0
20 0 0 0
30 0.01 0.01 0.01
40 0 0 0
50 0 0 0
60 0 0 0
70 0 0 0
80 0.003333333333 0 0.0176755091
90 0.3933333333 0 0.8529547556
100 1 1 1
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset multiplot
unset output
