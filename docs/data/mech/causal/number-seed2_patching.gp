set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1000,520
set output "number-seed2_patching.svg"
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
1 0.015
2 0.005
3 0
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
1 0.98
2 0.995
3 1
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
0 0.19
1 0.11
2 0.095
3 0.095
4 0.095
5 0.115
6 0.105
7 0.105
8 0.11
9 0.105
10 0.105
11 0.105
EOD
$p0s3 << EOD
0 0.1
1 0.19
2 0.14
3 0.15
4 0.155
5 0.165
6 0.155
7 0.16
8 0.16
9 0.16
10 0.17
11 0.17
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "corrupted answer, L 17", \
     $p0s1 using 1:2 with linespoints lw 1 lc rgb "#009e73" title "clean answer, L 17", \
     $p0s2 using 1:2 with linespoints lw 2 lc rgb "#56b4e9" title "corrupted answer, L 32", \
     $p0s3 using 1:2 with linespoints lw 1 lc rgb "#e69f00" title "clean answer, L 32"
unset output
