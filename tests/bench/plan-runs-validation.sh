#!/bin/sh
# plan-runs-validation.sh [REPLICATIONS] [SEED]: validation (d) of the plan
# for runs (analysis/README.md, "A plan for runs"). Per setting of known
# within-run and between-run noise: pilots of 3 runs x 10 rounds, the plan
# each one gives, and how often carrying it out (fresh runs, judged by
# compare's rule) resolves the row; the control carries it out with a
# quarter of the rounds. About 2 min per setting at 500 replications on one core.
# Run from the build directory after `make check` (it builds the program).
set -e
reps=${1:-500}
seed=${2:-20260804}
exec ./tests/test_plan_runs --validate "$reps" "$seed"
