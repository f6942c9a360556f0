# The command line: main and one file per subcommand, the only code that
# sees all three layers (core, analysis, plots).
cryptobench_SOURCES += \
	core/cli/main.c \
	core/cli/cli.c core/cli/cli.h \
	core/cli/cmd_run.c core/cli/cmd_report.c core/cli/cmd_compare.c core/cli/cmd_plot.c \
	core/cli/cmd_engines.c core/cli/cmd_verify.c core/cli/cmd_input.c core/cli/cmd_worker.c \
	core/cli/cmd_worker_check.c core/cli/worker_check_pk.c core/cli/worker_check.h \
	core/cli/cmd_export.c core/cli/cmd_claims.c \
	core/cli/cmd_fleet.c core/cli/fleet_slurm.c core/cli/fleet.h \
	core/cli/run_plan.c core/cli/run_plan.h core/cli/run_oneline.c core/cli/run_oneline.h \
	core/cli/run_recorded.c core/cli/run_recorded.h \
	core/cli/run_until.c core/cli/run_until.h core/cli/run_auto.c core/cli/run_auto.h \
	core/cli/run_args.c core/cli/run_args.h core/cli/run_output.c core/cli/run_output.h \
	core/cli/run_many.c core/cli/run_many.h core/cli/run_measure.c core/cli/run_measure.h \
	core/cli/options.c core/cli/options.h core/cli/html_page.c core/cli/html_page.h \
	core/cli/watchdog.c
