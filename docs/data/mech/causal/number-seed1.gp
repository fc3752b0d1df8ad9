set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,476
set output "number-seed1.svg"
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
0 0 0.202581
0 1 0.998991
0 2 0.995823
0 3 0.928367
0 4 0.401078
0 5 0.081560
0 6 0.005452
0 7 0.005021
0 8 0.003103
0 9 0.005630
0 10 0.001412
0 11 0.001839
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
0 0 0.815239
0 1 0.002660
0 2 0.006362
0 3 0.110381
0 4 0.656305
0 5 0.937741
0 6 0.996130
0 7 0.996518
0 8 0.997278
0 9 0.995972
0 10 0.998832
0 11 0.999463
EOD
plot $p1h using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette, \
     $p1h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset multiplot
unset output
