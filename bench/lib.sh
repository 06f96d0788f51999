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
