#!/bin/sh
# report and compare --format html: one self-contained page (no script, no
# network, the charts inline), opening on the answer (the winners and the
# size charts before the machine), its timelines small images, everything
# from the results file escaped (a label holding <script> shows as text),
# and, opened in headless Chromium: no console error, every image decodes, a
# screenshot of the size asked, and the winners table's text the same as
# report --format text's.
. "${top_srcdir:-.}/tests/lib.sh"
plan 19

S="$top_srcdir/tests/scenarios/plot/degenerate.lua"
GP=$(command -v gnuplot || true)
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
planted='<script>window.planted = 1</script>sim-a'

cb run "$S" -o "$WORK/plain.jsonl"
check "a sim run with references and a contaminated engine" status_is 0
# The label of sim-a, wherever the file has it, becomes a script.
jq -c --arg p "$planted" 'walk(if type == "object" and .label == "sim-a" then .label = $p else . end)' \
	"$WORK/plain.jsonl" >"$WORK/run.jsonl"
cb report "$WORK/run.jsonl"
check "...whose planted label the report takes" out_has "window.planted"

export CRYPTOBENCH_GNUPLOT="$GP"
cb report "$WORK/run.jsonl" --format html -o "$WORK/page.html"
check "report --format html -o FILE exits 0" status_is 0
check "...and names the page" out_has "wrote $WORK/page.html"
check "...a page from doctype to its end" sh -c \
	"head -c 15 '$WORK/page.html' | grep -q '<!DOCTYPE html>' && tail -n 1 '$WORK/page.html' | grep -q '</html>'"
check "...without a single script" sh -c "! grep -qi '<script' '$WORK/page.html'"
check "...the planted label shown as text" grep -q '&lt;script&gt;window.planted = 1&lt;/script&gt;sim-a' \
	"$WORK/page.html"
# Every src and href, quoted either way: only SVG as text and PNG in base64.
check "...nothing fetched: every image inline, no link out" sh -c \
	"! grep -Eo \"(src|href)=(\\\"[^\\\"]*|'[^']*)\" '$WORK/page.html' |
	 grep -Ev \"^src=('data:image/svg\\+xml,|\\\"data:image/png;base64,)\" | grep -q ."
check "...winners first, then cells, derived, masks or slopes, and notes" sh -c \
	"grep -o 'data-table=\"[a-z]*\"' '$WORK/page.html' | head -3 | tr '\n' ' ' |
	 grep -q 'winners.*cells.*derived'"
check "...the machine and engine versions" sh -c \
	"grep -q '<b>machine</b>' '$WORK/page.html' && grep -q '<li>memcpy: builtin' '$WORK/page.html'"
# line NUMBER of the first line matching PATTERN (0: none)
line_of() { grep -n -m 1 -e "$1" "$WORK/page.html" | cut -d: -f1 | grep . || echo 0; }
if [ -n "$GP" ]; then
	check "...the charts inline, each cell's timeline behind a click" sh -c \
		"grep -q '<figure>' '$WORK/page.html' && [ \$(grep -c '<details>' '$WORK/page.html') -ge 32 ]"
	winners=$(line_of 'data-table="winners"')
	chart=$(line_of 'alt="[^"]*: throughput against payload size, per engine')
	machine=$(line_of 'class="machine"')
	check "...opening on the answer: winners (line $winners), a size chart ($chart), then the machine ($machine)" \
		test 0 -lt "$winners" -a "$winners" -lt "$chart" -a "$chart" -lt "$machine"
	# A timeline is a small PNG: 480 x 270, a few KB here (under 12 KB in
	# base64); gnuplot's SVG of one was over 30 KB, cairo's PNG over 20 KB.
	grep -A 2 '^<summary>.*time per call in each round' "$WORK/page.html" |
		sed -n 's/^<img alt="[^"]*" src="data:image\/png;base64,\([^"]*\)".*/\1/p' |
		awk '{ print length($0) }' | sort -n >"$WORK/timeline-sizes"
	check "...each timeline image under 12000 bytes of base64 ($(wc -l <"$WORK/timeline-sizes") of them, the largest $(tail -n 1 "$WORK/timeline-sizes"))" \
		sh -c "[ \$(wc -l <'$WORK/timeline-sizes') -ge 32 ] && [ \$(tail -n 1 '$WORK/timeline-sizes') -le 12000 ]"
else
	skip 3 "gnuplot not installed: the page has no charts"
fi

cb run "$S" --set rounds=3 --runs 2 -o "$WORK/runs"
cb compare "$WORK/runs" --format html -o "$WORK/compare.html"
check "compare --format html writes a page too" sh -c \
	"[ \"\$(cat '$WORK/status')\" = 0 ] && grep -q 'data-table=\"cells\"' '$WORK/compare.html'"

if [ -z "$CHROMIUM" ]; then
	skip 5 "chromium not installed (./bootstrap installs it for this test)"
	done_testing
	exit
fi
# chromium ARGS...: headless, as root too, within a minute.
chromium() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --user-data-dir="$WORK/profile" "$@"
}
chromium --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom \
	"file://$WORK/page.html" >"$WORK/dom.html" 2>"$WORK/console"
check "chromium loads the page" grep -q 'data-table="winners"' "$WORK/dom.html"
check "...with no console message" sh -c "! grep -E 'CONSOLE|Uncaught' '$WORK/console'"
# A copy with a script of the test's own at its end: how many images, how
# many did not decode, and the winners table's text, for --dump-dom. An
# image decodes when drawn on a canvas it paints its last pixel (its charts
# have an opaque background): drawing decodes at once, where decode()'s
# promise may outlast the virtual time.
sed 's|</body>|<script>addEventListener("load", () => { const c = document.createElement("canvas"), x = c.getContext("2d", { willReadFrequently: true }); let bad = 0; for (const i of document.images) { try { c.width = i.naturalWidth; c.height = i.naturalHeight; x.drawImage(i, 0, 0); if (!(x.getImageData(c.width - 1, c.height - 1, 1, 1).data[3] > 0)) bad++; } catch (e) { bad++; } } const w = [...document.querySelectorAll("table[data-table=winners] tr")].map(r => [...r.cells].map(c => c.textContent).join(" ")).join("\\n"); const p = document.createElement("pre"); p.id = "check"; p.textContent = "images " + document.images.length + " undecoded " + bad + "\\n" + w + "\\n"; document.body.append(p); });</script></body>|' \
	"$WORK/page.html" >"$WORK/check.html"
chromium --virtual-time-budget=20000 --dump-dom "file://$WORK/check.html" >"$WORK/check-dom.html" 2>/dev/null
sed -n '/<pre id="check">/,/<\/pre>/p' "$WORK/check-dom.html" | sed 's/<pre id="check">//; s|</pre>.*||' |
	sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' >"$WORK/check.txt"
check "every image decodes ($(head -n 1 "$WORK/check.txt"))" sh -c \
	"head -n 1 '$WORK/check.txt' | grep -Eq '^images [1-9][0-9]* undecoded 0\$'"
cb report "$WORK/run.jsonl"
# The text table: from its header line (after the wrapped title) to the blank line.
awk '/^Fastest engine per/ { on = 1 } on && /^$/ { exit } on && /^algorithm / { t = 1 } t' \
	"$WORK/out" | tr -s ' ' >"$WORK/winners-text"
tail -n +2 "$WORK/check.txt" | sed '/^$/d' | tr -s ' ' >"$WORK/winners-html"
check "the winners table's text is report --format text's ($(wc -l <"$WORK/winners-text") lines)" sh -c \
	"[ -s '$WORK/winners-text' ] && cmp -s '$WORK/winners-text' '$WORK/winners-html' ||
	 { diff '$WORK/winners-text' '$WORK/winners-html' | head -5 | sed 's/^/# /'; false; }"
chromium --window-size=1280,2000 --screenshot="$WORK/shot.png" "file://$WORK/page.html" \
	>/dev/null 2>&1
check "a screenshot of the page, 1280 x 2000 and not blank" sh -c \
	"[ \"\$(od -An -tu1 -j16 -N8 '$WORK/shot.png' | awk '{ print \$3*256+\$4, \$7*256+\$8 }')\" = '1280 2000' ] &&
	 [ \$(wc -c <'$WORK/shot.png') -gt 50000 ]"
done_testing
