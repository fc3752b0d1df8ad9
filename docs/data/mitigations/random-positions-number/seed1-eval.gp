set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "seed1-eval.svg"
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
17 0.125
32 0.085
64 0.1
128 0.07
256 0.055
512 0.045
850 0.025
EOD
$p0s1 << EOD
17 0.11
32 0.095
64 0.07
128 0.075
256 0.055
512 0.055
850 0.035
EOD
$p0s2 << EOD
17 0.11
32 0.115
64 0.085
128 0.065
256 0.035
512 0.04
850 0.01
EOD
$p0s3 << EOD
17 0.12
32 0.12
64 0.07
128 0.04
256 0.05
512 0.03
850 0.02
EOD
$p0s4 << EOD
17 0.11625
32 0.10375
64 0.08125
128 0.0625
256 0.04875
512 0.0425
850 0.0225
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
17 0.11625
32 0.0475
64 0.045
128 0.03875
256 0.03
512 0.0225
850 0.015
EOD
plot $p0s0 using 1:2 with linespoints lw 1 lc palette cb 0 notitle, \
     $p0s1 using 1:2 with linespoints lw 1 lc palette cb 1 notitle, \
     $p0s2 using 1:2 with linespoints lw 1 lc palette cb 2 notitle, \
     $p0s3 using 1:2 with linespoints lw 1 lc palette cb 3 notitle, \
     $p0s4 using 1:2 with linespoints lw 3 lc rgb "#000000" title "all hops", \
     $p0s5 using 1:2 with lines dt 2 lw 1 lc rgb "#e51e10" title "chance (a uniform guess among the input's candidates)", \
     $p0s6 using 1:2 with linespoints lw 3 lc rgb "#e69f00" title "all hops, seen\\_jumps control"
unset output
