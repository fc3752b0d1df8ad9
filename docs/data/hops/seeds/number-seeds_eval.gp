set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1150,540
set output "number-seeds_eval.svg"
reset
set title "number task: accuracy against input length (3 training seeds, 95% t band)"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set logscale x
set format x "10^{%L}"
set grid
set xrange [17:850]
set format x "%g"
set xtics (17, 32, 64, 128, 256, 512, 850)
set yrange [0:1.02]
set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#b5de2b')
set cbrange [-0.5:3.5]
set colorbox
set cbtics ("1" 0, "2" 1, "3" 2, "4" 3)
set cblabel "hops" offset 1,0
set rmargin 3
set key below nobox
$p0s0 << EOD
17 1
32 0.1116666667
64 0.1316666667
128 0.1333333333
256 0.105
512 0.08166666667
850 0.07333333333
EOD
$p0s1 << EOD
17 1
32 0.235
64 0.1266666667
128 0.115
256 0.09166666667
512 0.08833333333
850 0.07666666667
EOD
$p0s2 << EOD
17 1
32 0.3233333333
64 0.13
128 0.125
256 0.09333333333
512 0.07333333333
850 0.05666666667
EOD
$p0s3 << EOD
17 1
32 0.2466666667
64 0.1133333333
128 0.1216666667
256 0.09
512 0.07333333333
850 0.05833333333
EOD
$p0s4 << EOD
17 1 1 1
32 0.2291666667 0.2009910435 0.2573422898
64 0.1254166667 0.09741267326 0.1534206601
128 0.12375 0.07406724576 0.1734327542
256 0.095 0.0519734727 0.1380265273
512 0.07916666667 0.05627808636 0.102055247
850 0.06625 0.04896113322 0.08353886678
EOD
$p0s5 << EOD
17 0.125
32 0.125
64 0.125
128 0.125
256 0.125
512 0.125
850 0.125
EOD
$p0s6 << EOD
17 1 1 1
32 0.4279166667 0.3478216821 0.5080116512
64 0.1970833333 0.1312614962 0.2629051705
128 0.04458333333 0.01052066589 0.07864600078
256 0.01166666667 0.003852154817 0.01948117852
512 0.009583333333 0.007790561363 0.0113761053
850 0.00875 0.00564482786 0.01185517214
EOD
plot $p0s0 using 1:2 with linespoints lw 1 lc palette cb 0 notitle, \
     $p0s1 using 1:2 with linespoints lw 1 lc palette cb 1 notitle, \
     $p0s2 using 1:2 with linespoints lw 1 lc palette cb 2 notitle, \
     $p0s3 using 1:2 with linespoints lw 1 lc palette cb 3 notitle, \
     $p0s4 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#000000" notitle, \
     $p0s4 using 1:2 with linespoints lw 3 lc rgb "#000000" title "all hops", \
     $p0s5 using 1:2 with lines dt 2 lw 1 lc rgb "#e51e10" title "chance (a uniform guess among the input's candidates)", \
     $p0s6 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#e69f00" notitle, \
     $p0s6 using 1:2 with linespoints lw 3 lc rgb "#e69f00" title "all hops, seen\\_jumps control"
unset output
