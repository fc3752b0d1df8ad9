set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "seed1-eval.svg"
reset
set title "number model: accuracy against input length"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set logscale x
set format x "10^{%L}"
set grid
set xrange [17:1024]
set format x "%g"
set xtics (17, 256, 512, 1024)
set yrange [0:1.02]
set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#b5de2b')
set cbrange [-0.5:3.5]
set colorbox
set cbtics ("1" 0, "2" 1, "3" 2, "4" 3)
set cblabel "hops" offset 1,0
set rmargin 3
set key below nobox
$p0s0 << EOD
17 0.07
256 0.115
512 0.12
1024 0.12
EOD
$p0s1 << EOD
17 0.06
256 0.095
512 0.105
1024 0.075
EOD
$p0s2 << EOD
17 0.07
256 0.1
512 0.095
1024 0.11
EOD
$p0s3 << EOD
17 0.075
256 0.13
512 0.105
1024 0.115
EOD
$p0s4 << EOD
17 0.06875
256 0.11
512 0.10625
1024 0.105
EOD
$p0s5 << EOD
17 0.125
256 0.125
512 0.125
1024 0.125
EOD
$p0s6 << EOD
17 0.06875
256 0.0125
512 0.01
1024 0.01125
EOD
plot $p0s0 using 1:2 with linespoints lw 1 lc palette cb 0 notitle, \
     $p0s1 using 1:2 with linespoints lw 1 lc palette cb 1 notitle, \
     $p0s2 using 1:2 with linespoints lw 1 lc palette cb 2 notitle, \
     $p0s3 using 1:2 with linespoints lw 1 lc palette cb 3 notitle, \
     $p0s4 using 1:2 with linespoints lw 3 lc rgb "#000000" title "all hops", \
     $p0s5 using 1:2 with lines dt 2 lw 1 lc rgb "#e51e10" title "chance (a uniform guess among the input's candidates)", \
     $p0s6 using 1:2 with linespoints lw 3 lc rgb "#e69f00" title "all hops, seen\\_jumps control"
unset output
