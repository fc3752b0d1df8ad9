set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,476
set output "number-seed0.svg"
set multiplot layout 1,2
reset
set title "number run: positional score"
set xlabel "checkpoint (training step)"
set ylabel "layer"
set xtics ("3000" 0)
set ytics ("L0" 0, "L1" 1, "L2" 2, "L3" 3, "L4" 4, "L5" 5, "L6" 6, "L7" 7, "L8" 8, "L9" 9, "L10" 10, "L11" 11)
set xrange [-0.5:0.5]
set yrange [-0.5:11.5]
set cbrange [0:1]
set cblabel "positional score"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.310314
0 1 0.999295
0 2 0.991756
0 3 0.865365
0 4 0.343024
0 5 0.080953
0 6 0.003973
0 7 0.002760
0 8 0.002733
0 9 0.000126
0 10 0.005012
0 11 0.000284
EOD
plot $p0h using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette, \
     $p0h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
reset
set title "number run: symbolic score"
set xlabel "checkpoint (training step)"
set ylabel "layer"
set xtics ("3000" 0)
set ytics ("L0" 0, "L1" 1, "L2" 2, "L3" 3, "L4" 4, "L5" 5, "L6" 6, "L7" 7, "L8" 8, "L9" 9, "L10" 10, "L11" 11)
set xrange [-0.5:0.5]
set yrange [-0.5:11.5]
set cbrange [0:1]
set cblabel "symbolic score"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p1h << EOD
0 0 0.722094
0 1 0.001621
0 2 0.014438
0 3 0.180345
0 4 0.716238
0 5 0.939552
0 6 0.997597
0 7 0.997998
0 8 0.998715
0 9 0.999995
0 10 0.996246
0 11 0.999968
EOD
plot $p1h using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette, \
     $p1h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset multiplot
unset output
