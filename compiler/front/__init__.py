"""A ruleset's source as written, made one plain ruleset to check: table options
settled, a variant's drops applied, the defines ordered as a graph, and the places
problems are reported at."""
