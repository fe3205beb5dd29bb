"""The shapes of the match API, one module per concern: request bodies (validated here, judged
by the rules engine) and answers described for the OpenAPI schema (drf-spectacular names a
component after its serializer class). Each module is imported by name; the package
re-exports nothing.

- writes: the match writes' bodies (event, undo, clock, judge call, walkover, table, hold);
- log: a match's log (its query, an entry, a page);
- match: the match as every read and write answers it, and the conflict answer;
- discipline: the discipline's view of the state and what the referee may enter (schema only);
- tables: a tournament's tables and the table board.

The error body of every answer is config.serializers.ErrorSerializer."""
