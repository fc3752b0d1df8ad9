set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "seed0-eval.svg"
reset
set title "number model: accuracy against input length"
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
17 0.805
32 0.08
64 0.045
128 0.065
256 0.045
512 0.05
850 0.035
EOD
$p0s1 << EOD
17 0.125
32 0.105
64 0.04
128 0.025
256 0.035
512 0.04
850 0.015
EOD
$p0s2 << EOD
17 0.19
32 0.125
64 0.08
128 0.05
256 0.045
512 0.025
850 0.04
EOD
$p0s3 << EOD
17 0.11
32 0.11
64 0.05
128 0.045
256 0.055
512 0.02
850 0.03
EOD
$p0s4 << EOD
17 0.3075
32 0.105
64 0.05375
128 0.04625
256 0.045
512 0.03375
850 0.03
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
17 0.3075
32 0.18375
64 0.14375
128 0.08125
256 0.07625
512 0.05875
850 0.0525
EOD
plot $p0s0 using 1:2 with linespoints lw 1 lc palette cb 0 notitle, \
     $p0s1 using 1:2 with linespoints lw 1 lc palette cb 1 notitle, \
     $p0s2 using 1:2 with linespoints lw 1 lc palette cb 2 notitle, \
     $p0s3 using 1:2 with linespoints lw 1 lc palette cb 3 notitle, \
     $p0s4 using 1:2 with linespoints lw 3 lc rgb "#000000" title "all hops", \
     $p0s5 using 1:2 with lines dt 2 lw 1 lc rgb "#e51e10" title "chance (a uniform guess among the input's candidates)", \
     $p0s6 using 1:2 with linespoints lw 3 lc rgb "#e69f00" title "all hops, seen\\_jumps control"
unset output
