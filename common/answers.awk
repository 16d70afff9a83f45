# answers.awk - a lab's answers file, from its lesson: each question of the
# lesson's "## 7. Questions" quoted, with room for the answer under it.
#
#   awk -v lab=NAME -f answers.awk LAB/README.md
BEGIN {
	print "# " lab ": answers"
	print ""
	print "Answer each question of the lesson (its section 7) under it, in your"
	print "own words, and commit this file with your code: make handin hands it"
	print "in, and the grader reads it beside your score.  Where a question asks"
	print "for a measurement or a gdb session, give what you ran and what it printed."
}
/^## 7\. / { on = 1; next }
on && /^## / { on = 0 }
!on || /^[ \t]*$/ { next }
/^[0-9]+\. / { if (n++) print "\nAnswer:"; print ""; print "> " $0; next }
n { sub(/^   /, ""); print "> " $0 }
END { if (n) print "\nAnswer:" }
