# The command line: main and one file per subcommand, the only code that
# sees all three layers (core, analysis, plots).
cryptobench_SOURCES += \
	cli/main.c \
	cli/cli.c cli/cli.h \
	cli/cmd_run.c cli/cmd_report.c cli/cmd_compare.c cli/cmd_plot.c \
	cli/cmd_engines.c cli/cmd_verify.c cli/cmd_input.c cli/cmd_worker.c \
	cli/cmd_worker_check.c cli/worker_check_pk.c cli/worker_check.h \
	cli/cmd_export.c cli/cmd_claims.c \
	cli/cmd_fleet.c cli/fleet_slurm.c cli/fleet.h \
	cli/run_plan.c cli/run_plan.h cli/run_oneline.c cli/run_oneline.h \
	cli/run_recorded.c cli/run_recorded.h \
	cli/run_until.c cli/run_until.h cli/run_auto.c cli/run_auto.h \
	cli/run_args.c cli/run_args.h cli/run_output.c cli/run_output.h \
	cli/run_many.c cli/run_many.h cli/run_measure.c cli/run_measure.h \
	cli/run_place.c cli/run_place.h \
	cli/options.c cli/options.h cli/html_page.c cli/html_page.h \
	cli/watchdog.c
