module cryptobench/worker

go 1.19
