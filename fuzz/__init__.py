"""A fuzz harness for mjr: the .mjr parser and checker, the hand notation, JSON hands,
directly built hands and the batch API.  See README.md beside this file."""
