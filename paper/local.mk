# The paper, built from the committed results in paper/data without measuring
# anything: `make paper` checks every claim of paper/claims.lua (failing on one
# the data no longer support), writes its numbers as LaTeX macros
# (paper/numbers.tex), draws the figures with `cryptobench plot` (PDF) and
# runs pdflatex twice. `make paper-data` measures the data again
# (paper/collect.sh), on a quiet machine. Neither is part of `all` or `check`;
# tests/cli_claims.sh checks the claims in `make check`, with no TeX.
#
# Works out of tree: everything made goes under the build tree's paper/.
PAPER_FIGURE_SETS = sweep key-scaling sha-ext threads validation-aa \
	validation-shift public-key

EXTRA_DIST += paper/collect.sh paper/claims.lua paper/paper.tex paper/data \
	scenarios/paper

paper/numbers.tex: cryptobench $(srcdir)/paper/claims.lua
	@$(MKDIR_P) paper
	./cryptobench claims $(srcdir)/paper/claims.lua --data $(srcdir)/paper/data \
		--numbers $@.tmp || { rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

# One folder of charts per data folder, and the two CPUs' key-scaling host
# against host (paper/fig/hosts); the timelines are left out.
paper/figures.stamp: cryptobench
	@$(MKDIR_P) paper/fig
	for d in $(PAPER_FIGURE_SETS); do \
		rm -rf paper/fig/$$d; \
		./cryptobench plot $(srcdir)/paper/data/$$d -o paper/fig/$$d --format pdf \
			--timelines none >paper/fig/$$d.log || { cat paper/fig/$$d.log; exit 1; }; \
	done
	rm -rf paper/fig/hosts
	./cryptobench plot $(srcdir)/paper/data/key-scaling $(srcdir)/paper/data/key-scaling-intel \
		-o paper/fig/hosts --format pdf --timelines none >paper/fig/hosts.log || \
		{ cat paper/fig/hosts.log; exit 1; }
	touch $@

paper/paper.pdf: $(srcdir)/paper/paper.tex paper/numbers.tex paper/figures.stamp
	cd paper && for pass in 1 2; do \
		TEXINPUTS='$(abs_srcdir)/paper:' pdflatex -interaction=nonstopmode \
			-halt-on-error paper.tex >paper.build.log 2>&1 || { tail -40 paper.build.log; exit 1; }; \
	done
	@grep -E 'Overfull|undefined|Undefined' paper/paper.log || true
	@echo "paper/paper.pdf: $$(grep -c '' paper/paper.log >/dev/null; \
		sed -n 's/^Output written on paper.pdf (\([0-9]*\) pages.*/\1 pages/p' paper/paper.log)"

# The claims and numbers depend on the data: always check them again.
paper: cryptobench
	rm -f paper/numbers.tex paper/figures.stamp
	$(MAKE) $(AM_MAKEFLAGS) paper/paper.pdf

paper-data: cryptobench
	$(SHELL) $(srcdir)/paper/collect.sh ./cryptobench $(srcdir)

.PHONY: paper paper-data
CLEANFILES += paper/numbers.tex paper/numbers.tex.tmp paper/figures.stamp paper/paper.pdf \
	paper/paper.aux paper/paper.log paper/paper.out paper/paper.build.log

# The figures' folders (make clean removes the files above).
clean-paper:
	rm -rf paper/fig paper/figures.stamp
.PHONY: clean-paper
