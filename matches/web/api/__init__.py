"""The REST API of matches: the match, its log, scoring writes, the clock, judge calls and
tables."""
