set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "letter-seeds-L4096_eval.svg"
reset
set title "letter task at 4096 tokens: mean over 3 training seeds"
set xlabel ""
set ylabel ""
set xtics ("1-hop" 0, "2-hop" 1, "3-hop" 2, "4-hop" 3, "all hops" 4)
set ytics ("accuracy" 0, "decoy control" 1, "chance" 2)
set xrange [-0.5:4.5]
set yrange [-0.5:2.5]
set cbrange [0:1]
set cblabel "accuracy"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 1.000000
1 0 1.000000
2 0 1.000000
3 0 0.989583
4 0 0.997396
0 1 0.989583
1 1 0.968750
2 1 0.979167
3 1 0.942708
4 1 0.970052
0 2 0.131789
1 2 0.132906
2 2 0.132161
3 2 0.133984
4 2 0.132710
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
