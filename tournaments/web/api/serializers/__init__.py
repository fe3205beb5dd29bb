"""The shapes of the tournaments API, one module per resource: input parsed here (the services
decide what is allowed) and answers described for the OpenAPI schema (drf-spectacular names a
component after its serializer class). Money is a string. Each module is imported by name; the
package re-exports nothing.

- common: what several resources share (a player's and a tournament's short shapes, the id,
  rating and read-only enum fields);
- rulesets: the rules engine's settings (a tournament's ruleset, per-stage overrides, a
  match's effective ruleset);
- tournament: a tournament, its settings written, the presets;
- players: the player registry, a player's rating history, the search;
- registrations: the desk (entries, payment, withdrawal, the money totals);
- bracket: the draw and the bracket; standings; prizes;
- corrections: a match's no-show, handicap, corrected result and rating changes;
- audit: the audit log's query;
- people: referees' logins, claim codes, merges;
- rating (the rating list, a profile, a head-to-head), entry (online entry, the reserve list,
  check-in, player requests), series (club cups), me (a player's own overview);
- webhooks, tokens: an organiser's webhooks, API tokens.

The error body of every answer is config.serializers.ErrorSerializer."""
