#!/bin/sh
# SIGINT to --runs ends with the hint, "cryptobench run --resume DIR" (each
# run's file records the scenario and its --set values); the hint run
# verbatim finishes the interrupted run, then the missing ones.
. "${top_srcdir:-.}/tests/lib.sh"
plan 9
mkdir "$WORK/bin" && ln -s "$CRYPTOBENCH" "$WORK/bin/cryptobench"
PATH="$WORK/bin:$PATH"
export PATH

"$CRYPTOBENCH" run --engines null --algorithms sha256 --sizes 64B --rounds 400 --trial-time 10ms --set rounds=400 --runs 3 -o "$WORK/r" --no-progress >/dev/null 2>"$WORK/err" &
pid=$!
# Interrupt run 1 while it measures (400 rounds of 10 ms: seconds to go), not
# after a fixed sleep that a fast or a loaded machine turns into run 2.
i=0
while [ $i -lt 300 ] && ! grep -q '"type":"trial"' "$WORK/r/run-1.jsonl" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
wait $pid
check "SIGINT to the parent of --runs: exit 130" test $? -eq 130
hint=$(tail -n 1 "$WORK/err")
diag "hint:$hint"
check "...it prints the hint: cryptobench run --resume DIR" test "$hint" = "  cryptobench run --resume $WORK/r"
check "...run 1 is kept, marked interrupted" sh -c "tail -n 1 '$WORK/r/run-1.jsonl' | jq -e '.interrupted == true' >/dev/null"
(cd "$WORK" && eval "$hint") >/dev/null 2>"$WORK/err2"
check "the hint run verbatim exits 0" test $? -eq 0
check "...run 1 is finished: every slot once" sh -c "[ \$(jq -r 'select(.type == \"trial\") | .seq' '$WORK/r/run-1.jsonl' | sort -n | uniq | wc -l) -eq 401 ] && [ \$(grep -c '\"type\":\"trial\"' '$WORK/r/run-1.jsonl') -eq 401 ] && tail -n 1 '$WORK/r/run-1.jsonl' | jq -e '.interrupted == false' >/dev/null"
check "...runs 2 and 3 are written, complete, with their own index" sh -c "for k in 2 3; do tail -n 1 '$WORK/r/run-'\$k.jsonl | jq -e '.interrupted == false' >/dev/null && [ \$(head -n 1 '$WORK/r/run-'\$k.jsonl | jq .run_index) -eq \$((k - 1)) ] || exit 1; done"
check "...with the layout seed the folder was made with" sh -c "[ \$(for k in 1 2 3; do head -n 1 '$WORK/r/run-'\$k.jsonl | jq .setup.seed; done | sort -u | wc -l) -eq 1 ]"
cb run "$top_srcdir/tests/scenarios/sim/cost.lua" --resume "$WORK/r"
check "--resume DIR with another scenario: exit 2" status_is 2
check "...in one line saying so" sh -c "[ \$(wc -l <'$WORK/err') -eq 1 ] && grep -q 'run-1.jsonl: not a run of .*cost.lua' '$WORK/err'"
done_testing
