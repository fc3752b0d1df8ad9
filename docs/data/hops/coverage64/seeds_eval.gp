set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1150,540
set output "seeds_eval.svg"
reset
set title "number task: accuracy against input length (3 training seeds, 95% t band)"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set logscale x
set format x "10^{%L}"
set grid
set xrange [17:256]
set format x "%g"
set xtics (17, 64, 128, 256)
set yrange [0:1.02]
set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#b5de2b')
set cbrange [-0.5:3.5]
set colorbox
set cbtics ("1" 0, "2" 1, "3" 2, "4" 3)
set cblabel "hops" offset 1,0
set rmargin 3
set key below nobox
$p0s0 << EOD
17 0.9666666667
64 0.8933333333
128 0.11
256 0.05666666667
EOD
$p0s1 << EOD
17 0.835
64 0.67
128 0.09333333333
256 0.1016666667
EOD
$p0s2 << EOD
17 0.3366666667
64 0.1666666667
128 0.13
256 0.08833333333
EOD
$p0s3 << EOD
17 0.3133333333
64 0.175
128 0.1566666667
256 0.105
EOD
$p0s4 << EOD
17 0.6129166667 0.5337906087 0.6920427246
64 0.47625 0.3422950189 0.6102049811
128 0.1225 0.1021380246 0.1428619754
256 0.08791666667 0.08010215482 0.09573117852
EOD
$p0s5 << EOD
17 0.125
64 0.125
128 0.125
256 0.125
EOD
$p0s6 << EOD
17 0.6129166667 0.5337906087 0.6920427246
64 0.04666666667 0 0.09874970085
128 0.02375 0 0.05337145431
256 0.01083333333 0.004369402068 0.0172972646
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
