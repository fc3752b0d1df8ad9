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
0 0.84 0.1729731742 1
10 0.8266666667 0.08087352684 1
20 0.97 0.9451586229 0.9948413771
30 0.9766666667 0.9387208363 1
40 0.96 0.7878938908 1
50 0.8266666667 0.2282351936 1
60 0.8166666667 0.1564590674 1
70 0.8433333333 0.2122775996 1
80 0.8266666667 0.248159402 1
90 0.9433333333 0.7425428726 1
100 0.9266666667 0.6541653271 1
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
20 0.003333333333 0 0.0176755091
30 0 0 0
40 0.006666666667 0 0.02100884243
50 0.003333333333 0 0.0176755091
60 0.006666666667 0 0.02100884243
70 0.03333333333 0 0.1558729368
80 0.03333333333 0 0.109224994
90 0.02666666667 0 0.0983775455
100 0.1766666667 0 0.7873470121
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
20 0.006666666667 0 0.02100884243
30 0 0 0
40 0.003333333333 0 0.0176755091
50 0 0 0
60 0 0 0
70 0 0 0
80 0.006666666667 0 0.02100884243
90 0.01666666667 0 0.06837811679
100 0.02666666667 0 0.1025583273
EOD
plot $p2s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p2s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "mean over 3 seeds (t 95%)"
unset multiplot
unset output
