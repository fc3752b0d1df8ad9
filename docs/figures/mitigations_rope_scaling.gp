$v0len << EOD
32 0.9615151515151515 0.9554545454545456 0.9454545454545454 0.9836363636363636
64 0.02272727272727273 0.049090909090909095 0.004545454545454546 0.014545454545454545
128 0.004545454545454546 0.010000000000000002 0.0018181818181818182 0.0018181818181818182
EOD
$v1len << EOD
32 0.10424242424242425 0.04363636363636364 0.24545454545454548 0.023636363636363636
64 0.007272727272727274 0.012727272727272726 0.004545454545454546 0.004545454545454546
128 0.00030303030303030303 0.0 0.0 0.0009090909090909091
EOD
$v2len << EOD
32 0.005454545454545455 0.0036363636363636364 0.009090909090909092 0.0036363636363636364
64 0.0048484848484848485 0.0009090909090909091 0.010909090909090908 0.002727272727272727
128 0.0018181818181818184 0.0036363636363636364 0.0 0.0018181818181818182
EOD
$v3len << EOD
32 0.8051515151515153 0.9127272727272728 0.5518181818181819 0.950909090909091
64 0.038181818181818185 0.07545454545454545 0.009090909090909092 0.030000000000000002
128 0.009696969696969697 0.021818181818181816 0.002727272727272727 0.004545454545454546
EOD
$v4len << EOD
32 0.6754545454545454 0.7663636363636364 0.4754545454545455 0.7845454545454547
64 0.042727272727272725 0.08818181818181818 0.023636363636363636 0.01636363636363636
128 0.004848484848484848 0.010909090909090908 0.0018181818181818182 0.0018181818181818182
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
20.0 0.016666666666666666
30.0 0.0
40.0 0.016666666666666666
50.0 0.0
60.0 0.0033333333333333335
70.0 0.013333333333333334
80.0 0.006666666666666667
90.0 0.023333333333333334
100.0 0.0
EOD
$v3depth << EOD
0.0 0.0
10.0 0.0
20.0 0.0
30.0 0.0033333333333333335
40.0 0.0
50.0 0.02
60.0 0.023333333333333334
70.0 0.08666666666666667
80.0 0.056666666666666664
90.0 0.11666666666666665
100.0 0.11333333333333333
EOD
$chance << EOD
32 0.25
64 0.1
128 0.05
EOD
set terminal pngcairo enhanced size 1300,560 font 'Helvetica,11'
set output 'docs/figures/mitigations_rope_scaling.png'
set multiplot layout 1,2
set key below nobox
set grid
set yrange [0:1]
set logscale x 2
set xrange [30.2738:135.298]
set xtics ("32" 32, "64" 64, "128" 128)
set xlabel 'context length (tokens)'
set ylabel 'exact match, mean over depths'
set title 'kv, qwen2 RoPE 4x64, trained at L = 32: mean of 3 seeds, circles: each' noenhanced
plot $v0len using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no scaling' noenhanced, \
  $v0len using 1:3 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:4 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:5 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v1len using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title 'pi:2' noenhanced, \
  $v1len using 1:3 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:4 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:5 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v2len using 1:2 with linespoints lw 2 pt 7 lc rgb '#009e73' title 'pi:4' noenhanced, \
  $v2len using 1:3 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $v2len using 1:4 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $v2len using 1:5 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $v3len using 1:2 with linespoints lw 2 pt 7 lc rgb '#56b4e9' title 'ntk:2' noenhanced, \
  $v3len using 1:3 with points pt 6 ps 0.8 lc rgb '#56b4e9' notitle, \
  $v3len using 1:4 with points pt 6 ps 0.8 lc rgb '#56b4e9' notitle, \
  $v3len using 1:5 with points pt 6 ps 0.8 lc rgb '#56b4e9' notitle, \
  $v4len using 1:2 with linespoints lw 2 pt 7 lc rgb '#e69f00' title 'ntk:4' noenhanced, \
  $v4len using 1:3 with points pt 6 ps 0.8 lc rgb '#e69f00' notitle, \
  $v4len using 1:4 with points pt 6 ps 0.8 lc rgb '#e69f00' notitle, \
  $v4len using 1:5 with points pt 6 ps 0.8 lc rgb '#e69f00' notitle, \
  $chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/pairs)'
unset logscale x
set xtics auto
set xrange [0:100]
set yrange [0:0.121333]
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'by depth at 2x the training length (L = 64)' noenhanced
plot $v0depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no scaling' noenhanced, \
  $v1depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title 'pi:2' noenhanced, \
  $v3depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#56b4e9' title 'ntk:2' noenhanced, \
  0.1 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/10 pairs)'
unset multiplot
