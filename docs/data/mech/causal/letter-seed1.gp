set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,476
set output "letter-seed1.svg"
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
0 0 0.002951
0 1 0.000002
0 2 0.000009
0 3 0.000022
0 4 0.000011
0 5 0.000006
0 6 0.025087
0 7 0.072084
0 8 0.068728
0 9 0.210554
0 10 0.106577
0 11 0.362925
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
0 0 0.999938
0 1 1.000000
0 2 1.000000
0 3 1.000000
0 4 1.000000
0 5 1.000000
0 6 0.984126
0 7 0.949076
0 8 0.947354
0 9 0.821330
0 10 0.916186
0 11 0.675106
EOD
plot $p1h using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette, \
     $p1h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset multiplot
unset output
