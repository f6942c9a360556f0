/* html_page.h: `report` and `compare` as one web page (--format html).
 *
 * One self-contained HTML file: no script, no network, no file beside it.
 * It opens on the answer when there is one (report's: the winners table,
 * then the throughput-against-size chart of each algorithm and op), then
 * the machine and the engines' versions of each results file, then the
 * report or comparison printed as HTML (report.h, format.h: the same tables
 * as the text, every text escaped), then the other charts (gnuplot's SVG,
 * drawn by plot.h into a folder of their own, removed after, inline as
 * data: images), each cell's timeline behind a <details>, a small PNG with
 * its cell's flags written under it. A part may put a chart beside its own
 * table (cb_cli_html_figures): the report puts each run's extensions charts
 * beside its "which code ran" tables. */
#ifndef CB_CLI_HTML_PAGE_H
#define CB_CLI_HTML_PAGE_H

#include <stdio.h>

#include "core/results/results.h"

/* The page's charts, drawn before its parts (html_page.c). */
struct cb_cli_html_charts;

/* A part of the page: printed as HTML to OUT, returning its status (0, 1:
 * invalid trials shown), or -1 with ERR. CHARTS: the page's, for
 * cb_cli_html_figures. */
typedef int (*cb_cli_html_part)(FILE *out, void *arg, struct cb_cli_html_charts *charts, char *err,
                                size_t err_len);

/* Print to OUT as figures the charts of the kind named KIND drawn from the
 * run R, which the page's Charts section then leaves out. Nothing when there
 * is none, or no gnuplot drew the page's charts (the Charts section says so). */
void cb_cli_html_figures(FILE *out, struct cb_cli_html_charts *charts, const struct cb_results *r,
                         const char *kind);

/* Write the page of the N FILES to PATH (NULL or "-": stdout): ANSWER(OUT,
 * ARG) and the size charts when ANSWER is not NULL, the machines and
 * engines, BODY(OUT, ARG) (the report or comparison as HTML), the other
 * charts of the files drawn by gnuplot (the one `plot` would use) that no
 * part placed, the timelines, and its end.
 * The exit status: CB_EXIT_OK (also when BODY said 1: invalid trials, shown
 * in the page), CB_EXIT_USAGE when BODY or the charts failed, CB_EXIT_PROBLEM
 * when PATH cannot be written; a failure is said on stderr as CMD's. Names
 * PATH on stdout when it is a file. */
int cb_cli_html_page(const char *cmd, const char *path, const char *title,
                     struct cb_results *const *files, size_t n, cb_cli_html_part answer,
                     cb_cli_html_part body, void *arg);

#endif
