"""What every stage of the compiler speaks: the checked IR (:mod:`.ir`) and the
words an expression may use, with their types and code (:mod:`.vocabulary`)."""
