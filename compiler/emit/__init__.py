"""Checked IR -> the generated module's text, through the jinja2 templates beside
this package (:func:`.codegen.generate`), and what the generator decides on the
way: which aggregates are computed together, which wildcard identities score alike."""
