$v0len << EOD
32 0.833939393939394 0.5063636363636363 0.9990909090909091 0.9963636363636365
64 0.03393939393939394 0.03909090909090909 0.04454545454545455 0.018181818181818184
128 0.004242424242424243 0.006363636363636364 0.004545454545454546 0.0018181818181818182
EOD
$v1len << EOD
32 0.7281818181818182 0.9863636363636364 0.8663636363636364 0.3318181818181818
64 0.04454545454545455 0.028181818181818183 0.04454545454545455 0.060909090909090906
128 0.005757575757575757 0.00818181818181818 0.0036363636363636364 0.005454545454545454
EOD
$v2len << EOD
32 0.9100000000000001 0.9963636363636365 0.9945454545454546 0.7390909090909091
64 0.052121212121212124 0.09727272727272727 0.051818181818181826 0.007272727272727272
128 0.007272727272727272 0.012727272727272726 0.007272727272727273 0.0018181818181818182
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
0.0 0.5299999999999999
10.0 0.5166666666666667
20.0 0.84
30.0 0.82
40.0 0.7966666666666667
50.0 0.8666666666666667
60.0 0.8300000000000001
70.0 0.8266666666666667
80.0 0.8433333333333333
90.0 0.5766666666666667
100.0 0.5633333333333334
EOD
$v2depth << EOD
0.0 0.79
10.0 0.79
20.0 0.9333333333333332
30.0 0.9333333333333332
40.0 0.9333333333333332
50.0 0.98
60.0 0.9866666666666667
70.0 0.98
80.0 0.9766666666666666
90.0 0.8566666666666666
100.0 0.85
EOD
$chance << EOD
32 0.25
64 0.1
128 0.05
EOD
set terminal pngcairo enhanced size 1300,560 font 'Helvetica,11'
set output 'docs/figures/mitigations_middle_weight.png'
set multiplot layout 1,2
set key below nobox
set grid
set yrange [0:1]
set logscale x 2
set xrange [30.2738:135.298]
set xtics ("32" 32, "64" 64, "128" 128)
set xlabel 'context length (tokens)'
set ylabel 'exact match, mean over depths'
set title 'kv, qwen2 4x64, L = 32, middle-weighted depths: mean of 3 seeds, circles: each' noenhanced
plot $v0len using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no middle weight' noenhanced, \
  $v0len using 1:3 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:4 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:5 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v1len using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--middle-weight 3' noenhanced, \
  $v1len using 1:3 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:4 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:5 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v2len using 1:2 with linespoints lw 2 pt 7 lc rgb '#009e73' title '--middle-weight 1' noenhanced, \
  $v2len using 1:3 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $v2len using 1:4 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $v2len using 1:5 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/pairs)'
unset logscale x
set xtics auto
set xrange [0:100]
set yrange [0:1.03653]
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'by depth at 1x the training length (L = 32)' noenhanced
plot $v0depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no middle weight' noenhanced, \
  $v1depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--middle-weight 3' noenhanced, \
  $v2depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#009e73' title '--middle-weight 1' noenhanced, \
  0.25 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/4 pairs)'
unset multiplot
