set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "qwen2-seed1-birth_shape.svg"
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
1 -1.390553448
2 -1.389750224
3 -1.388063716
4 -1.384672383
7 -1.349196282
12 -1.334550828
21 -1.386961935
37 -1.503593459
66 -1.790345834
101 -1.804465353
118 -1.838837787
201 -1.705452825
214 -1.832149506
301 -1.747200985
387 -1.789400538
401 -1.805316159
501 -1.662976833
601 -1.715906385
701 -1.71385518
EOD
$p0s1 << EOD
1 -1.655341787
2 -1.654125358
3 -1.651021344
4 -1.643482512
7 -1.56896352
12 -1.483027727
21 -1.448445673
37 -1.575708919
66 -2.005828122
101 -2.141017096
118 -2.116168146
201 -1.9851098
214 -1.956670489
301 -2.040277774
387 -2.032497926
401 -2.042223023
501 -2.052793918
601 -2.098097944
701 -2.095741298
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "middle / mean of the ends", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "dead zone (argmin) / mean of the ends"
unset output
