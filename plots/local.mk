# Charts: gnuplot templates and the code that writes their data (coming).
