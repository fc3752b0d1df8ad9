set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "gpt2-seed2-birth_shape.svg"
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
1 -1.88267601
2 -1.883293218
3 -1.894699607
4 -1.915297248
7 -1.969440073
12 -1.954192795
21 -1.978422274
37 -1.794252426
66 -1.833294378
101 -1.649145516
118 -1.652946932
201 -1.712940226
214 -1.765961622
301 -1.749044561
387 -1.847646096
401 -1.906104849
501 -1.799694851
601 -1.672234172
701 -1.760542105
EOD
$p0s1 << EOD
1 -1.983123723
2 -1.988002943
3 -1.999080825
4 -2.013921311
7 -2.054139957
12 -2.039315887
21 -2.01807027
37 -1.912169981
66 -1.908298423
101 -1.879764307
118 -1.93584847
201 -1.939819918
214 -1.966080385
301 -1.931714839
387 -2.093022659
401 -2.031818816
501 -1.947223405
601 -1.962081119
701 -2.042382416
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "middle / mean of the ends", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "dead zone (argmin) / mean of the ends"
unset output
