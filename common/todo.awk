# todo.awk - derive a lab's skeleton or clean solution from its marked one.
#
#   awk -v mode=skeleton -f todo.awk FILE	keep each TODO line, drop the code it marks
#   awk -v mode=solution -f todo.awk FILE	drop the TODO lines, keep the code
#   awk -v mode=skeleton -v todos=1,2,5 ...	those TODOs done, the others not
#						(a student's step: README's exercises)
#   awk -v mode=regions -f todo.awk FILE	the solution's lines, each after the
#						number of the TODO whose code it is
#						(0: none) and a tab (make mutants)
#
# A marker is a comment line "TODO n: hint" (/* */, // or #).  It marks the
# lines after it up to the first blank line or the first line indented less
# than the marker; "TODO n/m: hint" marks exactly the next m lines, and
# reads "TODO n: hint" in the skeleton.
# A line "/* stub: CODE */" ends a region; it is CODE in the skeleton and
# gone from the solution: what a function returns until it is written.
function width(s,	i, c, w) {
	w = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\t")
			w = w - w % 8 + 8
		else if (c == " ")
			w++
		else
			break
	}
	return w
}

mode == "regions" {
	if ($0 ~ /^[ \t]*\/\* stub: .* \*\/$/) {
		region = 0
		next
	}
	if ($0 ~ /^[ \t]*(\/\*|\/\/|#)[ \t]*TODO [0-9]+(\/[0-9]+)?:/) {
		match($0, /TODO [0-9]+/)
		region = substr($0, RSTART + 5, RLENGTH - 5)
		rdepth = width($0)
		rcount = 0
		if (match($0, /TODO [0-9]+\/[0-9]+:/))
			rcount = substr($0, RSTART + index(substr($0, RSTART), "/")) + 0
		next
	}
	if (region && rcount > 0) {
		print region "\t" $0
		if (--rcount == 0)
			region = 0
		next
	}
	if (region && ($0 ~ /^[ \t]*$/ || width($0) < rdepth))
		region = 0
	print region + 0 "\t" $0
	next
}

/^[ \t]*\/\* stub: .* \*\/$/ {
	if (mode == "skeleton" && !done) {
		sub(/\/\* stub: /, "")
		sub(/ \*\/$/, "")
		print
	}
	marking = 0
	next
}
marking && count > 0 {
	if (--count == 0)
		marking = 0
	next
}
marking {
	if ($0 ~ /^[ \t]*$/ || width($0) < depth)
		marking = 0
	else
		next
}
/^[ \t]*(\/\*|\/\/|#)[ \t]*TODO [0-9]+(\/[0-9]+)?:/ {
	match($0, /TODO [0-9]+/)
	done = index("," todos ",", "," substr($0, RSTART + 5, RLENGTH - 5) ",") > 0
	if (mode == "solution" || done)
		next
	marking = 1
	depth = width($0)
	count = 0
	line = $0
	# the student reads "TODO n:"; the line count is the generator's
	if (match($0, /TODO [0-9]+\/[0-9]+:/)) {
		slash = RSTART + index(substr($0, RSTART), "/") - 1
		count = substr($0, slash + 1) + 0
		line = substr($0, 1, slash - 1) substr($0, RSTART + RLENGTH - 1)
	}
	print line
	next
}
{ print }
