$v0len << EOD
32 0.833939393939394 0.5063636363636363 0.9990909090909091 0.9963636363636365
64 0.03393939393939394 0.03909090909090909 0.04454545454545455 0.018181818181818184
128 0.004242424242424243 0.006363636363636364 0.004545454545454546 0.0018181818181818182
EOD
$v1len << EOD
32 0.2406060606060606 0.01636363636363636 0.1827272727272727 0.5227272727272727
64 0.017878787878787876 0.002727272727272727 0.042727272727272725 0.00818181818181818
128 0.0006060606060606061 0.0 0.0018181818181818182 0.0
EOD
$v2len << EOD
32 0.07515151515151515 0.005454545454545455 0.17363636363636364 0.046363636363636364
64 0.010303030303030303 0.002727272727272727 0.024545454545454547 0.0036363636363636364
128 0.0012121212121212121 0.0018181818181818182 0.0018181818181818182 0.0
EOD
$v0depth << EOD
0.0 0.7666666666666666
10.0 0.7966666666666667
20.0 0.9966666666666667
30.0 0.9966666666666667
40.0 0.9966666666666667
50.0 0.75
60.0 0.7566666666666667
70.0 0.7600000000000001
80.0 0.7333333333333334
90.0 0.8300000000000001
100.0 0.79
EOD
$v1depth << EOD
0.0 0.16
10.0 0.16666666666666666
20.0 0.21333333333333335
30.0 0.18666666666666668
40.0 0.21333333333333335
50.0 0.20666666666666667
60.0 0.19999999999999998
70.0 0.17333333333333334
80.0 0.22333333333333336
90.0 0.45
100.0 0.4533333333333333
EOD
$v2depth << EOD
0.0 0.013333333333333334
10.0 0.02
20.0 0.03
30.0 0.01
40.0 0.02
50.0 0.02
60.0 0.016666666666666666
70.0 0.02666666666666667
80.0 0.016666666666666666
90.0 0.32
100.0 0.3333333333333333
EOD
$chance << EOD
32 0.25
64 0.1
128 0.05
EOD
set terminal pngcairo enhanced size 1300,560 font 'Helvetica,11'
set output 'docs/figures/mitigations_calibrate.png'
set multiplot layout 1,2
set key below nobox
set grid
set yrange [0:1]
set logscale x 2
set xrange [30.2738:135.298]
set xtics ("32" 32, "64" 64, "128" 128)
set xlabel 'context length (tokens)'
set ylabel 'exact match, mean over depths'
set title 'kv, qwen2 4x64, L = 32, calibrated: mean of 3 seeds, circles: each' noenhanced
plot $v0len using 1:2 with linespoints lw 2 pt 7 lc rgb '#9ecae1' title 'plain (strength 0)' noenhanced, \
  $v0len using 1:3 with points pt 6 ps 0.8 lc rgb '#9ecae1' notitle, \
  $v0len using 1:4 with points pt 6 ps 0.8 lc rgb '#9ecae1' notitle, \
  $v0len using 1:5 with points pt 6 ps 0.8 lc rgb '#9ecae1' notitle, \
  $v1len using 1:2 with linespoints lw 2 pt 7 lc rgb '#4292c6' title 'calibrated, strength 0.5' noenhanced, \
  $v1len using 1:3 with points pt 6 ps 0.8 lc rgb '#4292c6' notitle, \
  $v1len using 1:4 with points pt 6 ps 0.8 lc rgb '#4292c6' notitle, \
  $v1len using 1:5 with points pt 6 ps 0.8 lc rgb '#4292c6' notitle, \
  $v2len using 1:2 with linespoints lw 2 pt 7 lc rgb '#08306b' title 'calibrated, strength 1' noenhanced, \
  $v2len using 1:3 with points pt 6 ps 0.8 lc rgb '#08306b' notitle, \
  $v2len using 1:4 with points pt 6 ps 0.8 lc rgb '#08306b' notitle, \
  $v2len using 1:5 with points pt 6 ps 0.8 lc rgb '#08306b' notitle, \
  $chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/pairs)'
unset logscale x
set xtics auto
set xrange [0:100]
set yrange [0:1.03653]
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'by depth at 1x the training length (L = 32)' noenhanced
plot $v0depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#9ecae1' title 'plain (strength 0)' noenhanced, \
  $v1depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#4292c6' title 'calibrated, strength 0.5' noenhanced, \
  $v2depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#08306b' title 'calibrated, strength 1' noenhanced, \
  0.25 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/4 pairs)'
unset multiplot
