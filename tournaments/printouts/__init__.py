"""What a club prints on the day: the bracket for the wall, match sheets for the referees,
table cards with QR codes, and the final protocol: the data of each (data), its layout on paper
(layout) and its QR codes (qr). The panel's printout pages (tournaments.web.panel.printouts)
render them as HTML and, with WeasyPrint, as PDF (tournaments.diplomas.html_to_pdf)."""
