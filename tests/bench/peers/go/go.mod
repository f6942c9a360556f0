module cryptobench/peers

go 1.19
