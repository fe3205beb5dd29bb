"""The REST API of tournaments, registrations, players, people and one's API token (/api/v1/).
The match API is matches.web.api's."""
