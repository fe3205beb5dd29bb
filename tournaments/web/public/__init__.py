"""The public pages: tournaments, their bracket, standings and prizes, players, one's own page
(/me/), online entries and the account pages."""
