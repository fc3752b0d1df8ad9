set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,476
set output "letter-seed2.svg"
set multiplot layout 1,2
reset
set title "letter run: positional score"
set xlabel "checkpoint (training step)"
set ylabel "layer"
set xtics ("5000" 0)
set ytics ("L0" 0, "L1" 1, "L2" 2, "L3" 3, "L4" 4, "L5" 5, "L6" 6, "L7" 7, "L8" 8, "L9" 9, "L10" 10, "L11" 11)
set xrange [-0.5:0.5]
set yrange [-0.5:11.5]
set cbrange [0:1]
set cblabel "positional score"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.000030
0 1 0.000005
0 2 0.000017
0 3 0.000134
0 4 0.000199
0 5 0.000007
0 6 0.000046
0 7 0.002689
0 8 0.039272
0 9 0.068001
0 10 0.403538
0 11 0.102919
EOD
plot $p0h using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette, \
     $p0h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
reset
set title "letter run: symbolic score"
set xlabel "checkpoint (training step)"
set ylabel "layer"
set xtics ("5000" 0)
set ytics ("L0" 0, "L1" 1, "L2" 2, "L3" 3, "L4" 4, "L5" 5, "L6" 6, "L7" 7, "L8" 8, "L9" 9, "L10" 10, "L11" 11)
set xrange [-0.5:0.5]
set yrange [-0.5:11.5]
set cbrange [0:1]
set cblabel "symbolic score"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p1h << EOD
0 0 1.000000
0 1 1.000000
0 2 1.000000
0 3 1.000000
0 4 0.999998
0 5 1.000000
0 6 0.999999
0 7 0.998405
0 8 0.971148
0 9 0.945580
0 10 0.642331
0 11 0.915629
EOD
plot $p1h using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette, \
     $p1h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset multiplot
unset output
