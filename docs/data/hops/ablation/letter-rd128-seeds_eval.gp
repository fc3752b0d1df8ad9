set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1150,540
set output "letter-rd128-seeds_eval.svg"
reset
set title "letter task: accuracy against input length (3 training seeds, 95% t band)"
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
64 0.9983333333
256 0.9516666667
850 0.4933333333
EOD
$p0s1 << EOD
17 1
64 1
256 0.9583333333
850 0.46
EOD
$p0s2 << EOD
17 1
64 0.9983333333
256 0.9583333333
850 0.44
EOD
$p0s3 << EOD
17 1
64 0.9983333333
256 0.9433333333
850 0.3966666667
EOD
$p0s4 << EOD
17 1 1 1
64 0.99875 0.9956448279 1.001855172
256 0.9529166667 0.8578490269 1.02
850 0.4475 0.2450913602 0.6499086398
EOD
$p0s5 << EOD
17 0.1318764881
64 0.1318764881
256 0.1318764881
850 0.1318764881
EOD
$p0s6 << EOD
17 0.9995833333 0.9977905614 1.001376105
64 0.99125 0.9858716841 0.9966283159
256 0.8720833333 0.7939999327 0.9501667339
850 0.405 0.2920553658 0.5179446342
EOD
plot $p0s0 using 1:2 with linespoints lw 1 lc palette cb 0 notitle, \
     $p0s1 using 1:2 with linespoints lw 1 lc palette cb 1 notitle, \
     $p0s2 using 1:2 with linespoints lw 1 lc palette cb 2 notitle, \
     $p0s3 using 1:2 with linespoints lw 1 lc palette cb 3 notitle, \
     $p0s4 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#000000" notitle, \
     $p0s4 using 1:2 with linespoints lw 3 lc rgb "#000000" title "all hops", \
     $p0s5 using 1:2 with lines dt 2 lw 1 lc rgb "#e51e10" title "chance (a uniform guess among the input's candidates)", \
     $p0s6 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#e69f00" notitle, \
     $p0s6 using 1:2 with linespoints lw 3 lc rgb "#e69f00" title "all hops, decoy control"
unset output
