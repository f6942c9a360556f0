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
 * its cell's flags written under it. */
#ifndef CB_CLI_HTML_PAGE_H
#define CB_CLI_HTML_PAGE_H

#include <stdio.h>

#include "core/results/results.h"

/* A part of the page: printed as HTML to OUT, returning its status (0, 1:
 * invalid trials shown), or -1 with ERR. */
typedef int (*cb_cli_html_part)(FILE *out, void *arg, char *err, size_t err_len);

/* Write the page of the N FILES to PATH (NULL or "-": stdout): ANSWER(OUT,
 * ARG) and the size charts when ANSWER is not NULL, the machines and
 * engines, BODY(OUT, ARG) (the report or comparison as HTML), the other
 * charts of the files drawn by gnuplot (the one `plot` would use), the
 * timelines, and its end.
 * The exit status: CB_EXIT_OK (also when BODY said 1: invalid trials, shown
 * in the page), CB_EXIT_USAGE when BODY or the charts failed, CB_EXIT_PROBLEM
 * when PATH cannot be written; a failure is said on stderr as CMD's. Names
 * PATH on stdout when it is a file. */
int cb_cli_html_page(const char *cmd, const char *path, const char *title,
                     struct cb_results *const *files, size_t n, cb_cli_html_part answer,
                     cb_cli_html_part body, void *arg);

#endif
