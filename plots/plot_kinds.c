/* plot_kinds.c: the table of chart kinds (plot.h): what each is called, how
 * the command's summary describes it, its gnuplot template, and the writer
 * that draws it. plot.c runs the writers in this order; the writers use the
 * primitives of plot_files.c and plot_names.c, and nothing calls back. */
#include "plots/plot.h"
#include "plots/plot_internal.h"

const struct cb_plot_kind cb_plot_kinds[] = {
    {.name = "size-algorithm",
     .what = "throughput against payload size, a line per engine, and each over the fastest",
     .tmpl = "throughput-size.gp",
     .draw_run = cb_plot_run_charts},
    {.name = "size-engine", /* drawn with size-algorithm (plot_charts.c) */
     .what = "throughput against payload size, a line per algorithm",
     .tmpl = "throughput-size.gp"},
    {.name = "ratio",
     .what = "derived ratios per engine, with the expectation",
     .tmpl = "ratio.gp",
     .draw_run = cb_plot_ratio_charts},
    {.name = "encrypt-decrypt", /* drawn with size-algorithm */
     .what = "encrypt against decrypt",
     .tmpl = "encrypt-decrypt.gp"},
    {.name = "threads", /* drawn with size-algorithm */
     .what = "speedup with threads, against the ideal",
     .tmpl = "threads.gp"},
    {.name = "keysize",
     .what = "public-key operations per second against the key size, a line per engine",
     .tmpl = "keysize.gp",
     .draw_run = cb_plot_keysize_charts},
    {.name = "extensions",
     .what = "which code ran (run --explain): share of samples by the instruction-set class "
             "where the time stops, a bar per engine",
     .tmpl = "extensions.gp",
     .draw_run = cb_plot_extensions_charts},
    {.name = "timeline",
     .what = "time per call in each round, one chart per cell",
     .tmpl = "timeline.gp",
     .per_cell = true,
     .draw_run = cb_plot_timelines},
    {.name = "forest",
     .what = "across runs: each run's estimate and the across-run value",
     .tmpl = "forest.gp",
     .draw_across = cb_plot_forests},
    {.name = "hosts",
     .what = "across hosts: each host's speed against the baseline host, per engine",
     .tmpl = "hosts.gp",
     .draw_hosts = cb_plot_hosts},
};

const size_t cb_plot_n_kinds = sizeof cb_plot_kinds / sizeof cb_plot_kinds[0];
