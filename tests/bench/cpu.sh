# cpu.sh: one CPU for a timing script, and each vCPU's speed; sourced by
# tests/bench/peers.sh and tests/bench/noise.sh. This VM's vCPUs have run
# at different speeds for minutes at a time (peers.sh gives the figures),
# so two measurements compared with each other run on the same one.

# pin_to CPU SCRIPT [ARG...]: SCRIPT run again, with sh, under `taskset -c
# CPU`, unless CPU is "none" (the kernel places it) or this process runs
# there already: CB_PINNED_CPU is set for the run again, and a script it
# starts that asks for the same CPU goes on as it is.
pin_to() {
	pin_cpu=$1
	shift
	if [ "$pin_cpu" != none ] && [ "${CB_PINNED_CPU:-}" != "$pin_cpu" ]; then
		CB_PINNED_CPU=$pin_cpu exec taskset -c "$pin_cpu" sh "$@"
	fi
}

# cpu_speed [CPU]: the speed of CPU (default: wherever this runs) now, in
# MB/s: `openssl speed -elapsed -evp sha512` at 16 KiB for one second.
cpu_speed() {
	${1:+taskset -c "$1"} openssl speed -elapsed -evp sha512 -bytes 16384 -seconds 1 -mr 2>/dev/null |
		sed -n 's/^+F:[0-9]*:[^:]*://p' | awk '{ printf "%.0f", $1 / 1e6 }'
}

# vcpus CPU: one line, each vCPU's cpu_speed, and where CPU says the
# measurement runs.
vcpus() {
	for c in $(seq 0 $(($(nproc --all) - 1))); do
		printf 'cpu%s %s MB/s ' "$c" "$(cpu_speed "$c")"
	done
	case $1 in
	none) echo "(sha512 16 KiB, openssl speed -elapsed; measuring on any cpu)" ;;
	*) echo "(sha512 16 KiB, openssl speed -elapsed; measuring on cpu $1)" ;;
	esac
}
