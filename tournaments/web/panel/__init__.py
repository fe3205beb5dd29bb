"""The organiser panel (/panel/): set-up and settings, the registration desk, the draw, people,
prizes and diplomas, printouts, the audit log and one's API token. The table board and match
control are matches.web.panel's."""
