set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,476
set output "number-seed2.svg"
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
0 0 0.727661
0 1 0.999300
0 2 0.984686
0 3 0.872940
0 4 0.035882
0 5 0.004988
0 6 0.027638
0 7 0.006442
0 8 0.003682
0 9 0.000422
0 10 0.000650
0 11 0.000714
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
0 0 0.316807
0 1 0.001418
0 2 0.029431
0 3 0.173106
0 4 0.975279
0 5 0.997779
0 6 0.982204
0 7 0.994856
0 8 0.998316
0 9 0.999767
0 10 0.999658
0 11 0.999981
EOD
plot $p1h using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette, \
     $p1h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset multiplot
unset output
