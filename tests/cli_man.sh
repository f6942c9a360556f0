#!/bin/sh
# The manual page names every option of every command: each option a
# command's option table declares (cli/*.c) and each one its --help
# prints appears in that command's entry of man/cryptobench.1 (from its
# ".TP/.B COMMAND" line to the next command's). An option added to the
# program but not to the manual fails here. The last two points plant an
# option in a copy of the sources, and take one out of a copy of the manual,
# and make sure the check catches both.
. "${top_srcdir:-.}/tests/lib.sh"
plan 5

MAN=$top_srcdir/man/cryptobench.1
CLI=$top_srcdir/cli

# The commands the program lists in its usage (the hidden worker is not).
commands=$("$CRYPTOBENCH" --help 2>&1 | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')

# table_options DIR: "COMMAND --name" for every option the option tables of
# DIR (a copy of cli) declare: rows written CB_OPTION_KIND("--name", ...)
# or with a file's own short form of it (STRING, FLAG), rows written out
# {"--name", ..., false} (one ending in true is hidden: used between the
# program's own processes), and fleet's list of names, which it parses by
# hand. A file's command is its name: cmd_NAME.c, run_*.c (run), fleet_*.c
# (fleet); cmd_worker.c is the hidden worker's.
table_options() {
	for f in "$1"/*.c; do
		base=$(basename "$f" .c)
		case $base in
		cmd_worker) continue ;;
		cmd_*) cmd=$(printf '%s\n' "${base#cmd_}" | tr _ -) ;;
		run_*) cmd=run ;;
		fleet_*) cmd=fleet ;;
		*) continue ;;
		esac
		awk -v cmd="$cmd" '
		function name(s) { match(s, /"--[a-z0-9-]+"/); return substr(s, RSTART + 1, RLENGTH - 2) }
		/(CB_OPTION_[A-Z]+|STRING|FLAG)\("--[a-z0-9-]+"/ { print cmd, name($0); next }
		/^[ \t]*\{"--[a-z0-9-]+",/ { row = $0; first = name($0)
			while (row !~ /\}/ && (getline line) > 0) row = row line
			if (row !~ /,[ \t]*true[ \t]*\}/) print cmd, first; next }
		/_names\[\] = \{/ { names = 1 }
		names { s = $0; while (match(s, /"--[a-z0-9-]+"/)) {
				n = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
				if (n != "--help") print cmd, n }
			if ($0 ~ /\};/) names = 0 }' "$f"
	done | sort -u
}

# help_options: "COMMAND --name" for every option each command's --help names.
help_options() {
	for c in $commands; do
		"$CRYPTOBENCH" "$c" --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]*' | sed "s/^/$c /"
	done | sort -u
}

# entries MAN: "COMMAND<TAB>text" for each line of each command's entry in
# the COMMANDS section, with roff's \- and font changes taken out.
entries() {
	awk '
	/^\.SH/ { in_cmds = ($0 ~ /^\.SH COMMANDS/); cur = ""; prev = $0; next }
	in_cmds && prev == ".TP" && /^\.B [a-z]/ { w = $2; gsub(/\\-/, "-", w); cur = w }
	in_cmds && cur != "" { t = $0; gsub(/\\-/, "-", t); gsub(/\\f[BIRP]/, "", t); print cur "\t" t }
	{ prev = $0 }' "$1"
}

# missing MAN: "COMMAND --name" for each option read on stdin that COMMAND's
# entry of MAN does not name.
missing() {
	entries "$1" >"$WORK/entries"
	while read -r cmd opt; do
		awk -F '\t' -v c="$cmd" '$1 == c { print $2 }' "$WORK/entries" |
			grep -qE -- "$opt([^a-z0-9-]|\$)" || echo "$cmd $opt"
	done
}

# report LIST: true when LIST is empty, else its first lines as diagnostics.
none() {
	[ -z "$1" ] || { printf '%s\n' "$1" | head -n 10 | sed 's/^/# not in the manual: /'; false; }
}

table_options "$CLI" >"$WORK/table"
help_options >"$WORK/help"

every_command() {
	[ -n "$commands" ] || { diag "no commands read from cryptobench --help"; return 1; }
	entries "$MAN" | cut -f 1 | sort -u >"$WORK/entered"
	for c in $commands; do
		grep -qx "$c" "$WORK/entered" || { diag "no entry for $c"; return 1; }
		grep -q "^$c " "$WORK/table" || { diag "no option read from $c's table"; return 1; }
	done
}
check "every command the program lists has an entry in the manual, and options read from its table" every_command

check "every option of every command's table is in its entry of the manual" \
	none "$(missing "$MAN" <"$WORK/table")"
check "every option each command's --help names is in its entry of the manual" \
	none "$(missing "$MAN" <"$WORK/help")"

# The checks themselves: an option planted in a copy of a table, and one
# taken out of a copy of the manual.
mkdir -p "$WORK/cli"
cp "$CLI"/*.c "$WORK/cli/"
sed 's/^\( *\)CB_OPTION_CALL("--seed", NULL, set_seed),/&\n\1CB_OPTION_BOOL("--frobnicate", NULL, struct input_args, frobnicate),/' \
	"$CLI/cmd_input.c" >"$WORK/cli/cmd_input.c"
planted_option() {
	caught=$(table_options "$WORK/cli" | missing "$MAN")
	[ "$caught" = "input --frobnicate" ] || { diag "caught: $caught"; false; }
}
check "an option planted in a copy of a table is caught" planted_option

sed '/\\-\\-timelines/d' "$MAN" >"$WORK/man.1"
removed_option() {
	caught=$(missing "$WORK/man.1" <"$WORK/table")
	[ "$caught" = "plot --timelines" ] || { diag "caught: $caught"; false; }
}
check "an option taken out of a copy of the manual is caught" removed_option

done_testing
