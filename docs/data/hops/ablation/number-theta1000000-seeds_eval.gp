set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1150,540
set output "number-theta1000000-seeds_eval.svg"
reset
set title "number task: accuracy against input length (3 training seeds, 95% t band)"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set logscale x
set format x "10^{%L}"
set grid
set xrange [17:850]
set format x "%g"
set xtics (17, 64, 256, 850)
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
64 0.08333333333
256 0.06166666667
850 0.06333333333
EOD
$p0s1 << EOD
17 1
64 0.1033333333
256 0.065
850 0.06166666667
EOD
$p0s2 << EOD
17 0.9816666667
64 0.1033333333
256 0.05166666667
850 0.06
EOD
$p0s3 << EOD
17 0.9666666667
64 0.09333333333
256 0.07833333333
850 0.06666666667
EOD
$p0s4 << EOD
17 0.9870833333 0.9572456612 1.016921006
64 0.09583333333 0.06765771017 0.1240089565
256 0.06416666667 0.02423973911 0.1040935942
850 0.06291666667 0.0340647323 0.09176860104
EOD
$p0s5 << EOD
17 0.125
64 0.125
256 0.125
850 0.125
EOD
$p0s6 << EOD
17 0.9870833333 0.9572456612 1.016921006
64 0.2066666667 0.1616327486 0.2517005847
256 0.1245833333 0 0.269974819
850 0.06833333333 0 0.1937120687
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
