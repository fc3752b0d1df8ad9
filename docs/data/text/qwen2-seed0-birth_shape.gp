set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "qwen2-seed0-birth_shape.svg"
reset
set title "middle and minimum against the ends (position 0, query) by step"
set xlabel "training step + 1"
set ylabel "log10 ratio"
set logscale x
set format x "10^{%L}"
set grid
set xrange [1:701]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p0s0 << EOD
1 -1.416677844
2 -1.41669321
3 -1.416935109
4 -1.41652004
7 -1.383091039
12 -1.342830484
21 -1.292639528
37 -1.449567031
66 -1.875982871
101 -1.921335936
118 -1.912424825
201 -1.608639255
214 -1.59509565
301 -1.564495445
387 -1.520358273
401 -1.547866412
501 -1.652389585
601 -1.728269204
701 -1.752765058
EOD
$p0s1 << EOD
1 -1.652161215
2 -1.652133672
3 -1.651090718
4 -1.646386247
7 -1.572347577
12 -1.47229025
21 -1.40862362
37 -1.607201064
66 -2.063503723
101 -1.964753033
118 -1.925653848
201 -1.889902891
214 -1.886031929
301 -1.915771361
387 -1.930690252
401 -1.973158659
501 -1.966311162
601 -1.992776652
701 -1.995108232
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "middle / mean of the ends", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "dead zone (argmin) / mean of the ends"
unset output
