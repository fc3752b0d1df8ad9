set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1000,520
set output "number-seed1_patching.svg"
reset
set title "number run, step 3000: one layer's attention output patched from an input whose jump lands on another letter"
set xlabel "patched layer"
set ylabel "fraction of pairs"
set grid
set xrange [-0.5:11.5]
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
0 0
1 0
2 0.01
3 0.005
4 0
5 0
6 0
7 0
8 0
9 0
10 0
11 0
EOD
$p0s1 << EOD
0 1
1 1
2 0.99
3 0.995
4 1
5 1
6 1
7 1
8 1
9 1
10 1
11 1
EOD
$p0s2 << EOD
0 0.155
1 0.16
2 0.14
3 0.135
4 0.14
5 0.16
6 0.15
7 0.155
8 0.15
9 0.16
10 0.16
11 0.165
EOD
$p0s3 << EOD
0 0.08
1 0.09
2 0.11
3 0.095
4 0.09
5 0.08
6 0.075
7 0.085
8 0.075
9 0.08
10 0.08
11 0.08
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "corrupted answer, L 17", \
     $p0s1 using 1:2 with linespoints lw 1 lc rgb "#009e73" title "clean answer, L 17", \
     $p0s2 using 1:2 with linespoints lw 2 lc rgb "#56b4e9" title "corrupted answer, L 32", \
     $p0s3 using 1:2 with linespoints lw 1 lc rgb "#e69f00" title "clean answer, L 32"
unset output
