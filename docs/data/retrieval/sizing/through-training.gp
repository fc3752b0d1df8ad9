$r0 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.0 0.005 0.005 0.0
220 0.055 0.055 0.045 0.06
500 0.085 0.04 0.035 0.035
1000 0.035 0.075 0.045 0.04
1326 0.065 0.04 0.03 0.075
1500 0.145 0.215 0.255 0.255
2000 0.095 0.33 0.315 0.395
2500 0.165 0.825 0.275 0.4
3000 0.29 0.93 0.265 0.33
3500 0.245 0.975 0.325 0.395
4000 0.27 0.955 0.385 0.455
4500 0.395 0.97 0.31 0.255
5000 0.275 0.97 0.34 0.325
5500 0.425 0.98 0.255 0.335
6000 0.2 0.99 0.445 0.345
6500 0.42 0.99 0.3 0.275
7000 0.32 0.985 0.37 0.335
7500 0.33 0.995 0.28 0.36
8000 0.32 0.99 0.245 0.36
EOD
$u0 << EOD
-1000 0
EOD
$r1 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.005 0.0 0.0 0.0
220 0.035 0.025 0.115 0.04
500 0.015 0.055 0.065 0.08
1000 0.085 0.09 0.06 0.02
1326 0.035 0.055 0.07 0.03
1500 0.03 0.055 0.07 0.175
2000 0.88 0.195 0.05 0.215
2500 0.97 0.33 0.1 0.24
3000 0.86 0.56 0.4 0.445
3500 0.975 0.82 0.54 0.64
4000 0.975 0.795 0.45 0.8
4500 0.985 0.73 0.685 0.905
5000 0.99 0.81 0.895 0.945
5500 0.97 0.965 0.885 0.975
6000 1.0 0.99 0.985 0.975
6500 1.0 0.96 0.99 1.0
7000 1.0 0.995 0.99 1.0
7500 1.0 0.995 1.0 1.0
8000 1.0 0.995 1.0 1.0
EOD
$u1 << EOD
2000 1.02
4000 1.02
4500 1.02
5000 1.02
5500 1.02
6500 1.02
EOD
$r2 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.0 0.0 0.0 0.0
220 0.025 0.02 0.065 0.08
500 0.02 0.04 0.035 0.11
1000 0.25 0.245 0.21 0.115
1326 0.095 0.215 0.3 0.305
1500 0.15 0.175 0.2 0.37
2000 0.845 0.805 0.795 0.785
2500 0.915 0.91 0.9 0.905
3000 0.9 0.885 0.94 0.97
3500 0.955 0.96 0.925 0.94
4000 0.985 0.975 0.925 0.93
4500 0.95 0.955 0.94 0.96
5000 0.955 0.965 0.95 0.99
5500 0.96 0.99 0.975 0.99
6000 0.985 0.99 0.975 0.985
6500 0.99 0.995 0.98 0.995
7000 0.98 1.0 1.0 0.99
7500 0.995 0.995 0.995 0.995
8000 0.995 0.995 0.995 0.99
EOD
$u2 << EOD
-1000 0
EOD
$r3 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.005 0.005 0.0 0.0
220 0.01 0.045 0.04 0.125
500 0.07 0.065 0.035 0.065
1000 0.08 0.055 0.055 0.095
1326 0.025 0.055 0.03 0.07
1500 0.03 0.02 0.06 0.18
2000 0.86 0.26 0.02 0.175
2500 0.97 0.33 0.125 0.14
3000 0.96 0.41 0.185 0.165
3500 0.93 0.515 0.425 0.57
4000 0.83 0.695 0.51 0.62
4500 0.835 0.59 0.655 0.815
5000 0.975 0.88 0.865 0.92
5500 1.0 0.975 0.955 0.98
6000 1.0 0.975 0.93 0.985
6500 1.0 0.995 0.995 1.0
7000 1.0 1.0 0.99 1.0
7500 1.0 1.0 1.0 1.0
8000 1.0 1.0 1.0 1.0
EOD
$u3 << EOD
3500 1.02
4500 1.02
EOD
$r4 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.005 0.0 0.005 0.0
220 0.035 0.045 0.075 0.13
500 0.075 0.06 0.035 0.045
1000 0.06 0.05 0.02 0.125
1326 0.05 0.03 0.085 0.065
1500 0.055 0.06 0.03 0.04
2000 0.075 0.06 0.035 0.045
2500 0.03 0.085 0.05 0.105
3000 0.085 0.12 0.09 0.015
3500 0.085 0.18 0.05 0.025
4000 0.07 0.27 0.095 0.03
4500 0.03 0.605 0.165 0.12
5000 0.03 0.785 0.4 0.275
5500 0.025 0.85 0.39 0.265
6000 0.06 0.845 0.465 0.28
6500 0.06 0.83 0.475 0.3
7000 0.125 0.875 0.565 0.345
7500 0.14 0.92 0.585 0.33
8000 0.16 0.965 0.595 0.37
EOD
$u4 << EOD
-1000 0
EOD
$r5 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.0 0.0 0.0 0.0
220 0.03 0.07 0.04 0.04
500 0.125 0.07 0.04 0.045
1000 0.035 0.08 0.04 0.06
1326 0.055 0.045 0.075 0.09
1500 0.035 0.07 0.07 0.12
2000 0.07 0.115 0.145 0.285
2500 0.2 0.18 0.255 0.24
3000 0.195 0.245 0.285 0.34
3500 0.4 0.365 0.365 0.385
4000 0.46 0.405 0.33 0.38
4500 0.545 0.36 0.355 0.48
5000 0.595 0.34 0.335 0.815
5500 0.765 0.365 0.39 0.84
6000 0.82 0.43 0.425 0.785
6500 0.815 0.555 0.455 0.85
7000 0.91 0.56 0.455 0.86
7500 0.9 0.575 0.54 0.885
8000 0.92 0.655 0.525 0.93
EOD
$u5 << EOD
4500 1.02
5000 1.02
5500 1.02
6000 1.02
6500 1.02
7000 1.02
7500 1.02
8000 1.02
EOD
$r6 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.005 0.01 0.0 0.0
220 0.015 0.005 0.01 0.575
500 0.15 0.02 0.015 0.145
1000 0.175 0.025 0.005 0.17
1326 0.15 0.015 0.005 0.175
1500 0.13 0.005 0.01 0.19
2000 0.175 0.01 0.015 0.13
2500 0.095 0.015 0.005 0.28
3000 0.055 0.005 0.11 0.62
3500 0.1 0.015 0.205 0.815
4000 0.525 0.015 0.37 0.795
4500 0.98 0.105 0.56 0.78
5000 0.89 0.585 0.64 0.775
5500 0.995 0.8 0.6 0.92
6000 1.0 0.865 0.715 0.87
6500 1.0 0.93 0.675 0.94
7000 0.975 0.96 0.82 0.93
7500 1.0 0.965 0.865 0.925
8000 1.0 0.99 0.88 0.925
EOD
$u6 << EOD
500 1.02
1000 1.02
1326 1.02
1500 1.02
2000 1.02
2500 1.02
4000 1.02
4500 1.02
5000 1.02
5500 1.02
6000 1.02
6500 1.02
EOD
$r7 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.005 0.005 0.01 0.0
220 0.1 0.03 0.015 0.18
500 0.115 0.015 0.01 0.21
1000 0.285 0.02 0.02 0.085
1326 0.105 0.02 0.015 0.14
1500 0.115 0.03 0.075 0.175
2000 0.345 0.1 0.14 0.43
2500 0.47 0.055 0.095 0.36
3000 0.355 0.125 0.08 0.385
3500 0.45 0.39 0.21 0.49
4000 0.91 0.805 0.8 0.82
4500 0.905 0.83 0.81 0.89
5000 0.94 0.92 0.93 0.925
5500 0.945 0.955 0.97 0.955
6000 0.965 0.955 0.975 0.985
6500 0.99 0.995 0.97 0.995
7000 0.99 0.99 0.99 1.0
7500 0.995 0.98 0.985 0.995
8000 0.99 0.99 0.99 0.995
EOD
$u7 << EOD
220 1.02
500 1.02
1000 1.02
1326 1.02
1500 1.02
2000 1.02
2500 1.02
3000 1.02
3500 1.02
4500 1.02
EOD
$r8 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.0 0.0 0.0 0.005
220 0.045 0.015 0.01 0.205
500 0.1 0.03 0.005 0.155
1000 0.105 0.03 0.015 0.155
1326 0.07 0.01 0.01 0.18
1500 0.16 0.005 0.015 0.125
2000 0.95 0.08 0.02 0.305
2500 0.955 0.17 0.075 0.44
3000 0.985 0.41 0.25 0.585
3500 0.99 0.685 0.46 0.61
4000 0.94 0.6 0.53 0.885
4500 0.99 0.7 0.61 0.945
5000 0.99 0.72 0.645 0.97
5500 1.0 0.83 0.825 0.97
6000 1.0 0.88 0.89 0.975
6500 0.99 0.88 0.93 0.965
7000 1.0 0.94 0.995 0.995
7500 1.0 0.965 0.975 0.995
8000 1.0 0.97 0.985 0.995
EOD
$u8 << EOD
220 1.02
500 1.02
1000 1.02
1326 1.02
1500 1.02
2000 1.02
2500 1.02
3000 1.02
4000 1.02
4500 1.02
5000 1.02
5500 1.02
6000 1.02
6500 1.02
7000 1.02
EOD
$r9 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.0 0.005 0.005 0.0
220 0.02 0.0 0.015 0.01
500 0.755 0.785 0.755 0.855
1000 0.9 0.88 0.845 0.925
1326 0.88 0.92 0.895 0.945
1500 0.925 0.94 0.9 0.95
2000 0.925 0.95 0.96 0.985
2500 0.97 0.965 0.965 0.98
3000 0.99 0.97 0.965 0.985
3500 0.98 0.97 0.975 0.99
4000 0.995 0.995 0.985 0.985
4500 0.99 0.98 0.98 0.98
5000 0.995 0.995 0.975 0.985
5500 0.995 0.995 0.995 0.995
6000 0.99 0.99 0.99 0.995
6500 0.99 0.995 1.0 0.995
7000 0.985 0.995 1.0 1.0
7500 0.99 0.995 1.0 1.0
8000 0.995 1.0 1.0 1.0
EOD
$u9 << EOD
-1000 0
EOD
$r10 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.005 0.0 0.0 0.0
220 0.03 0.015 0.01 0.015
500 0.165 0.155 0.265 0.34
1000 0.945 0.945 0.92 0.93
1326 0.97 0.985 0.95 0.975
1500 0.98 0.965 0.965 0.985
2000 0.99 0.985 0.98 0.99
2500 0.99 0.995 0.98 0.99
3000 0.96 0.98 0.985 0.985
3500 0.99 0.995 0.995 0.995
4000 0.98 1.0 0.985 0.985
4500 0.99 0.99 0.995 0.985
5000 0.995 0.99 1.0 1.0
5500 0.995 1.0 1.0 1.0
6000 0.995 1.0 0.99 0.995
6500 0.995 0.995 1.0 0.995
7000 1.0 0.995 0.995 1.0
7500 0.995 0.995 1.0 1.0
8000 0.995 0.995 1.0 1.0
EOD
$u10 << EOD
-1000 0
EOD
$r11 << EOD
0 0.0 0.0 0.0 0.0
1 0.0 0.0 0.0 0.0
6 0.0 0.0 0.0 0.0
36 0.0 0.0 0.005 0.0
220 0.005 0.03 0.035 0.03
500 0.5 0.535 0.46 0.63
1000 0.84 0.81 0.725 0.83
1326 0.87 0.925 0.855 0.905
1500 0.88 0.925 0.875 0.9
2000 0.935 0.93 0.895 0.92
2500 0.95 0.98 0.95 0.955
3000 0.965 0.98 0.95 0.985
3500 0.975 0.98 0.99 0.975
4000 0.995 0.98 0.97 0.975
4500 0.985 0.99 0.975 0.985
5000 0.975 0.985 0.975 1.0
5500 0.985 0.985 0.985 0.985
6000 0.995 0.965 0.98 0.985
6500 0.99 1.0 0.99 0.985
7000 1.0 1.0 0.99 0.995
7500 1.0 1.0 0.995 0.995
8000 1.0 1.0 0.99 0.99
EOD
$u11 << EOD
-1000 0
EOD
set terminal pngcairo enhanced size 1720,950 font 'Helvetica,11'
set output 'docs/data/retrieval/sizing/through-training.png'
set multiplot layout 3,4 title 'pairs at depth 0, 33, 67, 100% (dark to light); grey: eval says U' noenhanced
set grid
set yrange [0:1.02]
set key off
set style fill solid 1.0 noborder
set xrange [0:8000]
set title 'qwen2-rope-4x64-L32-ck500: not learned' noenhanced
unset xlabel
set ylabel 'exact match'
plot $u0 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r0 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r0 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r0 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r0 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-rope-4x64-L32-ck500-s1: transient U' noenhanced
unset xlabel
unset ylabel
plot $u1 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r1 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r1 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r1 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r1 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-rope-4x64-L32-ck500-s2: no U on the way' noenhanced
unset xlabel
unset ylabel
plot $u2 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r2 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r2 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r2 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r2 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-rope-4x64-L32-ck500-s3: transient U' noenhanced
unset xlabel
unset ylabel
plot $u3 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r3 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r3 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r3 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r3 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-rope-4x64-L32-ck500-s4: not learned' noenhanced
unset xlabel
set ylabel 'exact match'
plot $u4 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r4 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r4 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r4 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r4 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'llama-rope-4x64-L32-ck500: not learned' noenhanced
unset xlabel
unset ylabel
plot $u5 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r5 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r5 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r5 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r5 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-rope-ends-4x64-L32-ck500: transient U' noenhanced
unset xlabel
unset ylabel
plot $u6 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r6 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r6 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r6 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r6 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-rope-ends-4x64-L32-ck500-s1: transient U' noenhanced
unset xlabel
unset ylabel
plot $u7 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r7 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r7 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r7 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r7 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-rope-ends-4x64-L32-ck500-s2: transient U' noenhanced
set xlabel 'training step'
set ylabel 'exact match'
plot $u8 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r8 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r8 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r8 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r8 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-alibi-4x64-L32-ck500: no U on the way' noenhanced
set xlabel 'training step'
unset ylabel
plot $u9 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r9 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r9 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r9 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r9 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-alibi-4x64-L32-ck500-s1: no U on the way' noenhanced
set xlabel 'training step'
unset ylabel
plot $u10 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r10 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r10 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r10 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r10 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
set title 'qwen2-alibi-4x64-L32-ck500-s2: no U on the way' noenhanced
set xlabel 'training step'
unset ylabel
plot $u11 using 1:2:(500) with boxes lc rgb '#d9d9d9' notitle, \
  $r11 using 1:2 with lines lw 2 lc rgb '#440154' notitle, \
  $r11 using 1:3 with lines lw 2 lc rgb '#31688e' notitle, \
  $r11 using 1:4 with lines lw 2 lc rgb '#35b779' notitle, \
  $r11 using 1:5 with lines lw 2 lc rgb '#b5de2b' notitle
unset multiplot
