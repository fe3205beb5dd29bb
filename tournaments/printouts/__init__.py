"""What a club prints on the day: the bracket for the wall, match sheets for the referees,
table cards with QR codes, and the final protocol. Each is a printable HTML page and the
same page rendered as a PDF by WeasyPrint (tournaments.diplomas.html_to_pdf)."""
