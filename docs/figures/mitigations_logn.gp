$v0len << EOD
32 0.9615151515151515 0.9554545454545456 0.9454545454545454 0.9836363636363636
64 0.02272727272727273 0.049090909090909095 0.004545454545454546 0.014545454545454545
128 0.004545454545454546 0.010000000000000002 0.0018181818181818182 0.0018181818181818182
EOD
$v1len << EOD
32 0.9521212121212121 0.9418181818181818 0.9409090909090909 0.9736363636363637
64 0.02212121212121212 0.04454545454545455 0.006363636363636364 0.015454545454545455
128 0.0048484848484848485 0.01 0.0018181818181818182 0.002727272727272727
EOD
$v2len << EOD
32 0.9336363636363636 0.9390909090909091 0.8863636363636364 0.9754545454545455
64 0.02 0.04090909090909091 0.0018181818181818182 0.017272727272727273
128 0.004545454545454546 0.01 0.0009090909090909091 0.002727272727272727
EOD
$v0depth << EOD
0.0 0.0
10.0 0.0
20.0 0.0
30.0 0.0
40.0 0.0
50.0 0.0033333333333333335
60.0 0.0
70.0 0.05333333333333334
80.0 0.06666666666666667
90.0 0.05333333333333334
100.0 0.07333333333333333
EOD
$v1depth << EOD
0.0 0.0
10.0 0.0
20.0 0.0033333333333333335
30.0 0.0
40.0 0.0
50.0 0.0033333333333333335
60.0 0.0
70.0 0.06
80.0 0.05666666666666667
90.0 0.06
100.0 0.06
EOD
$v2depth << EOD
0.0 0.0
10.0 0.0
20.0 0.0
30.0 0.0
40.0 0.0
50.0 0.006666666666666667
60.0 0.0033333333333333335
70.0 0.05333333333333334
80.0 0.04666666666666667
90.0 0.04666666666666667
100.0 0.06333333333333334
EOD
$chance << EOD
32 0.25
64 0.1
128 0.05
EOD
set terminal pngcairo enhanced size 1300,560 font 'Helvetica,11'
set output 'docs/figures/mitigations_logn.png'
set multiplot layout 1,2
set key below nobox
set grid
set yrange [0:1]
set logscale x 2
set xrange [30.2738:135.298]
set xtics ("32" 32, "64" 64, "128" 128)
set xlabel 'context length (tokens)'
set ylabel 'exact match, mean over depths'
set title 'kv, qwen2 4x64 trained at L = 32, log-n scale at evaluation: mean of 3 seeds, circles: each' noenhanced
plot $v0len using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no scaling' noenhanced, \
  $v0len using 1:3 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:4 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:5 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v1len using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title 's = 0.2885 (1/ln 32)' noenhanced, \
  $v1len using 1:3 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:4 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:5 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v2len using 1:2 with linespoints lw 2 pt 7 lc rgb '#009e73' title 's = 0.3607 (1/ln 16)' noenhanced, \
  $v2len using 1:3 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $v2len using 1:4 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $v2len using 1:5 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/pairs)'
unset logscale x
set xtics auto
set xrange [0:100]
set yrange [0:0.104]
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'by depth at 2x the training length (L = 64)' noenhanced
plot $v0depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no scaling' noenhanced, \
  $v1depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title 's = 0.2885 (1/ln 32)' noenhanced, \
  $v2depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#009e73' title 's = 0.3607 (1/ln 16)' noenhanced, \
  0.1 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/10 pairs)'
unset multiplot
