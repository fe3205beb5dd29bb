"""Reads of the tournaments app, shared by the API and the web pages, one module per concern:
tournament (get, the visible list), players (registry search, rating history), desk
(registrations, money totals, table time), audit (the merged audit log), bracket, standings,
prizes. Selectors return querysets or plain dicts (JSON-able apart from Decimal money) with a
constant number of queries. They return data: the words a reader is shown (titles, labels) are
added by tournaments.presentation (bracket_shown, standings_shown). A player's own pages, the
people pages and the referee's list read tournaments.selectors_players, selectors_people and
selectors_referee."""
