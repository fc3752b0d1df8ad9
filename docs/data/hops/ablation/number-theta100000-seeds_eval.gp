set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1150,540
set output "number-theta100000-seeds_eval.svg"
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
64 0.09
256 0.1016666667
850 0.06833333333
EOD
$p0s1 << EOD
17 1
64 0.1316666667
256 0.1
850 0.07666666667
EOD
$p0s2 << EOD
17 1
64 0.175
256 0.07666666667
850 0.07166666667
EOD
$p0s3 << EOD
17 1
64 0.1416666667
256 0.1
850 0.085
EOD
$p0s4 << EOD
17 1 1 1
64 0.1345833333 0.06709790967 0.202068757
256 0.09458333333 0.04786794744 0.1412987192
850 0.07541666667 0.03102971801 0.1198036153
EOD
$p0s5 << EOD
17 0.125
64 0.125
256 0.125
850 0.125
EOD
$p0s6 << EOD
17 1 1 1
64 0.1670833333 0 0.3914808132
256 0.03208333333 0 0.1143752772
850 0.009166666667 0.007373894696 0.01095943864
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
