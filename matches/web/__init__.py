"""The match faces: the public scoreboard, overlay and table page (public), the referee form
and home (referee), the organiser's table board and match control (panel) and the match API
(api). They share helpers with the other faces through tournaments.web.shared."""
