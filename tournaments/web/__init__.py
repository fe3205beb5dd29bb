"""The faces of Luza over the domain: the public pages (public), the organiser panel (panel),
the API (api), and the helpers they share (shared). A face never imports another face; the
match pages (the scoreboard, the referee form, the table board) are matches.web's.
docs/architecture.md has the layers and the import contracts that hold them."""
