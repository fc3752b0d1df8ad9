set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "s2-influence-64_depths.svg"
reset
set title "share of the answer's influence on the queried needle (L = 64, 1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "checkpoint step"
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xtics rotate by 30 right
set ytics ("500" 0, "1000" 1, "1500" 2, "2000" 3, "2500" 4, "3000" 5)
set xrange [-0.5:10.5]
set yrange [-0.5:5.5]
set cbrange [0:0.180401]
set cblabel "mean share on the queried needle's tokens"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.126945
1 0 0.114942
2 0 0.110918
3 0 0.109297
4 0 0.103921
5 0 0.089575
6 0 0.087962
7 0 0.117211
8 0 0.096766
9 0 0.116900
10 0 0.113122
0 1 0.129923
1 1 0.115011
2 1 0.096958
3 1 0.116416
4 1 0.111636
5 1 0.092325
6 1 0.106104
7 1 0.103728
8 1 0.092044
9 1 0.108634
10 1 0.114879
0 2 0.120554
1 2 0.103469
2 2 0.097103
3 2 0.108059
4 2 0.092424
5 2 0.089651
6 2 0.111064
7 2 0.090982
8 2 0.085876
9 2 0.098475
10 2 0.101196
0 3 0.138999
1 3 0.129692
2 3 0.120723
3 3 0.118592
4 3 0.109694
5 3 0.115131
6 3 0.122796
7 3 0.128302
8 3 0.118442
9 3 0.129141
10 3 0.129854
0 4 0.140642
1 4 0.119167
2 4 0.137665
3 4 0.136259
4 4 0.121244
5 4 0.120834
6 4 0.132915
7 4 0.128052
8 4 0.130062
9 4 0.125122
10 4 0.133131
0 5 0.156548
1 5 0.142568
2 5 0.180401
3 5 0.164042
4 5 0.144904
5 5 0.142561
6 5 0.148792
7 5 0.143499
8 5 0.150268
9 5 0.147133
10 5 0.150083
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.0902007 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
