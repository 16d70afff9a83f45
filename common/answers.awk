# answers.awk - the files a student writes beside the code, from the
# lesson: part=answers quotes each question of its "## 7. Questions", with
# room for the answer under it, and asks for the time spent; part=review
# quotes its "## 8. Review" and leaves room for the review.
#
#   awk -v lab=NAME -v n=N -v part=answers|review -f answers.awk LAB/README.md
BEGIN {
	section = part == "review" ? 8 : 7
	if (part == "review") {
		print "# " lab ": review"
		print ""
		print "Write your review of the 2005 patch (the lesson's section 8, quoted"
		print "below) as you would post it on the list: one paragraph per problem,"
		print "naming the file and line it is about.  Commit this file with your"
		print "code: make handin-lab" n " hands it in."
	} else {
		print "# " lab ": answers"
		print ""
		print "Answer each question of the lesson (its section 7) under it, in your"
		print "own words, and commit this file with your code: make handin-lab" n " hands"
		print "it in, and the grader reads it beside your score.  Where a question asks"
		print "for a measurement or a gdb session, give what you ran and what it printed."
		print ""
		print "Time spent on this lab (hours):"
	}
}
$0 ~ "^## " section "\\. " { on = 1; next }
on && /^## / { on = 0 }
!on { next }
part == "review" && /^[ \t]*$/ { if (quoted) gap = 1; next }
part == "review" { if (!quoted++) print ""; else if (gap) print ">"; gap = 0; print "> " $0; next }
/^[ \t]*$/ { next }
/^[0-9]+\. / { if (k++) print "\nAnswer:"; print ""; print "> " $0; next }
k { sub(/^   /, ""); print "> " $0 }
END {
	if (part == "review" && quoted)
		print "\nReview:"
	else if (k)
		print "\nAnswer:"
}
