# Helpers the bench scripts share: source it as
#   . "$(dirname "$0")/lib.sh"

# Nanosecond wall clock (forks date: about a millisecond per call).
now() { date +%s.%N; }

# The median of the numbers in file $1, one per line: one preempted run
# should not move the figure.
median() {
	sort -n "$1" | awk '{ v[NR] = $1 }
	    END { m = int((NR + 1) / 2); print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'
}

# Run "$@" (a command or a shell function, its output dropped) and print
# its CPU seconds, user and system: the times of a subshell's children,
# in 10 ms ticks; "failed" if it fails.  CPU time is what a neighbour on
# the other core does not stretch.
cpu_of() {
	cpu_split_of "$@" | awk '{ print $1 }'
}

# The same, as "total system": the system part alone too.
cpu_split_of() {
	( if "$@" >/dev/null; then times; else echo failed; fi ) |
	    awk '$1 == "failed" { print; exit } NR == 2 {
		split($1, u, /[ms]/); split($2, s, /[ms]/)
		printf "%.6f %.6f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2],
		    s[1] * 60 + s[2] }'
}
