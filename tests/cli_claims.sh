#!/bin/sh
# cryptobench claims: the paper's claims (paper/claims.lua) all hold on the
# committed data (paper/data); a results file edited so that one claim no
# longer holds (in the paper's host, or in the second CPU's) makes the
# check name exactly that claim and exit 1; a bad
# claims file or data folder exits 2 with one line naming the file and line.
# No TeX is needed: the claims are the paper's checks, not its typesetting.
. "${top_srcdir:-.}/tests/lib.sh"
plan 13
CLAIMS="$top_srcdir/paper/claims.lua"
DATA="$top_srcdir/paper/data"
# one_line: stderr holds one line beside claims' notes of the runs it judges
# in a --runs auto folder (one a folder with plan.log).
one_line() {
	[ "$(grep -vc ' is a --runs auto folder (plan.log): judging ' "$WORK/err")" -eq 1 ] ||
		{ diag "stderr: $(head -c 400 "$WORK/err")"; false; }
}

# 1-3: the committed data support every claim, and the numbers are written.
cb claims "$CLAIMS" --data "$DATA" --numbers "$WORK/numbers.tex"
all_held() {
	status_is 0 && grep -q '^[0-9]* claims: \([0-9]*\) held, 0 not supported$' "$WORK/out" &&
		! grep -q '^NOT SUPPORTED' "$WORK/out"
}
check "every claim of paper/claims.lua holds on paper/data" all_held
numbers_written() {
	n=$(grep -c '^\\newcommand{\\[A-Za-z]*}{.*}$' "$WORK/numbers.tex")
	[ "$n" -gt 20 ] || { diag "$n macros"; return 1; }
	! grep -i -E '\{(-?nan|-?inf|nil)\}' "$WORK/numbers.tex" || { diag "a number is not finite"; false; }
}
check "--numbers writes one macro per number, all finite" numbers_written
# The text names its claims (\claim{NAME} in paper.tex): each one it names is
# declared and checked, and each one declared is named in the text.
claims_named() {
	sed -n 's/^\(held\|NOT SUPPORTED\)  *\([^:]*\):.*/\2/p' "$WORK/out" | sort -u >"$WORK/declared"
	grep -o '\\claim{[^}]*}' "$top_srcdir/paper/paper.tex" | sed 's/^\\claim{\(.*\)}$/\1/' |
		sort -u >"$WORK/named"
	[ -s "$WORK/named" ] && cmp -s "$WORK/declared" "$WORK/named" ||
		{ diag "declared but not named, named but not declared: $(comm -3 "$WORK/declared" "$WORK/named" | tr '\n' ' ')"; false; }
}
check "the claims paper.tex names are exactly the claims declared" claims_named

# plant DIR FOLDER FILTER: a copy of the data in DIR whose FOLDER's files
# have every line passed through the jq FILTER.
plant() {
	mkdir -p "$1" && cp -R "$DATA"/. "$1/" || return 1
	for f in "$1/$2"/run-*.jsonl*; do
		case $f in
		*.zst) zstd -q -d -c "$f" ;;
		*) cat "$f" ;;
		esac | jq -c "$3" >"$WORK/edited" || return 1
		case $f in
		*.zst) zstd -q -f "$WORK/edited" -o "$f" ;;
		*) mv "$WORK/edited" "$f" ;;
		esac || return 1
	done
}
# slower LABEL ALGORITHM OP FACTOR: a jq filter stretching that cell's trials.
slower() {
	echo "if .type == \"trial\" and .cell.label == \"$1\" and .cell.algorithm == \"$2\" and
		.cell.op == \"$3\" then .ns *= $4 | .cpu_ns *= $4 | .ticks *= $4 | .cycles *= $4
		else . end"
}
# planted_fails DIR CLAIM: claims on DIR exit 1 naming CLAIM alone, on one line.
planted_fails() {
	cb claims "$CLAIMS" --data "$1"
	status_is 1 && one_line && err_has "claims.lua:[0-9]*: claim '$2' is not supported" &&
		grep -q "^NOT SUPPORTED  *$2:" "$WORK/out" &&
		{ grep -q ' claims: [0-9]* held, 1 not supported$' "$WORK/out" || { diag "$(tail -1 "$WORK/out")"; false; }; }
}

# 4-5: one engine's AES-256-CBC encryption made 25% slower (time and cycles)
# in every run of key-scaling: its 10/14 claim, and that alone, fails.
# 6-7: the second CPU's host: OpenSSL's AES-128-CBC decryption made 30%
# faster in every Intel run: the claim that the AMD runs gain more from
# parallel decryption, and that alone, fails.
if ! command -v jq >/dev/null 2>&1 || ! command -v zstd >/dev/null 2>&1; then
	skip 4 "no jq or zstd to edit a results file: ./bootstrap installs them"
else
	if plant "$WORK/data" key-scaling "$(slower openssl aes-256-cbc encrypt 1.25)"; then
		check "the key-scaling files edited" true
		check "openssl's aes-256-cbc slowed: exit 1, naming that claim alone on one line" \
			planted_fails "$WORK/data" cbc-10-14-openssl
	else
		check "the key-scaling files edited" false
		skip 1 "no edited data"
	fi
	if plant "$WORK/intel" key-scaling-intel "$(slower openssl aes-128-cbc decrypt 0.7)"; then
		check "the second CPU's files edited" true
		check "Intel openssl CBC decryption faster: exit 1, naming the cross-CPU claim alone" \
			planted_fails "$WORK/intel" cbc-decrypt-gain-by-cpu
	else
		check "the second CPU's files edited" false
		skip 1 "no edited data"
	fi
fi

# 8: paper/data/README.md names the machine of every folder as its headers do.
readme_matches() {
	rows=$(grep -c '^| [a-z-]* | [0-9]' "$top_srcdir"/paper/data/README.md)
	dirs=$(find "$DATA" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$rows" -eq "$dirs" ] || { diag "$rows rows for $dirs folders"; return 1; }
	grep '^| [a-z-]* | [0-9]' "$top_srcdir"/paper/data/README.md | while IFS='|' read -r _ name runs when cpu _; do
		name=$(echo $name) runs=$(echo $runs) when=$(echo $when) cpu=$(echo "$cpu" | sed 's/^ *//; s/ *$//')
		[ -d "$DATA/$name" ] || { diag "no folder $name"; return 1; }
		[ "$(ls "$DATA/$name"/run-*.jsonl* | wc -l)" -eq "$runs" ] || { diag "$name: not $runs runs"; return 1; }
		h=$(zstd -q -d -c "$DATA/$name/run-1.jsonl.zst" | head -n 1)
		got=$(echo "$h" | jq -r '.started[0:16] | sub("T"; " ")')
		[ "$got" = "$when" ] || { diag "$name: started $got, README $when"; return 1; }
		got=$(echo "$h" | jq -r '.host.cpu')
		[ "$got" = "$cpu" ] || { diag "$name: cpu $got, README $cpu"; return 1; }
	done
}
if command -v jq >/dev/null 2>&1 && command -v zstd >/dev/null 2>&1; then
	check "paper/data/README.md: every folder's runs, date and CPU as its headers say" readme_matches
else
	skip 1 "no jq or zstd to read the headers"
fi

# 9-13: bad claims files and data: exit 2, one line, file and line.
bad() { # bad NAME TEXT...: the claims file $WORK/NAME.lua holding TEXT
	name=$1
	shift
	printf '%s\n' "$@" >"$WORK/$name.lua"
	cb claims "$WORK/$name.lua" --data "$DATA"
}
at_line() { status_is 2 && one_line && err_has "^$WORK/$1.lua:$2: $3"; }
bad syntax 'claim {' '  name = "x",' '  text = "y" check = 1 }'
check "a syntax error: exit 2, file:line" at_line syntax 3 ""
bad field '-- a misspelt field' 'claim { name = "x", text = "y", chek = function() return true end }'
check "an unknown field: exit 2, file:line and the hint" at_line field 2 ".*unknown field 'chek' (did you mean 'check'?)"
bad notbool 'claim { name = "x", text = "y",' '  check = function() return "yes" end }'
check "a check that returns no boolean: exit 2 at the claim" at_line notbool 1 "claim 'x': the check returned string"
bad nodata 'local d = data "no-such-folder"' 'claim { name = "x", text = "y", check = function() return true end }'
check "a missing data folder: exit 2, one line" at_line nodata 1 ""
bad badname 'number { name = "not_letters", value = 1 }' 'claim { name = "x", text = "y", check = function() return true end }'
check "a number that is no TeX macro name: exit 2, file:line" at_line badname 1 "number 'not_letters'"

done_testing
