// The organiser's flow with a client generated from the live schema: types by
// openapi-typescript (schema.d.ts), requests by openapi-fetch. No hand-written HTTP, no casts:
// what compiles here is what the schema promises.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type EngineEvent = Schemas["EngineEvent"];
type Slot = "a" | "b";

interface Answer<T> {
  data?: T;
  error?: Schemas["Error"];
  response: Response;
}

function ok<T>(answer: Answer<T>, step: string): T {
  if (answer.data === undefined || !answer.response.ok) {
    const { status } = answer.response;
    throw new Error(`${step}: ${status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

export interface FlowResult {
  tournament: number;
  winner: string;
  score: number[];
  paidFees: string;
  pool: string;
  prize: string;
  staleCode: string;
}

export async function organiserFlow(baseUrl: string, token: string): Promise<FlowResult> {
  // The schema's bearerAuth: the header a generator sends by default.
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });

  const tournament = ok(
    await api.POST("/api/v1/tournaments/", {
      body: {
        name: "Кубок «Луза»",
        date: "2026-12-05",
        preset: "free_pyramid_30",
        ruleset: { balls_to_win: 2 },
        handicap_scheme: "none",
        format: "single",
        entry_fee: "500",
        place_shares: ["100"],
      },
    }),
    "create the tournament",
  );
  const id = tournament.id;
  ok(
    await api.POST("/api/v1/tournaments/{id}/open-registration/", { params: { path: { id } } }),
    "open registration",
  );

  const known = ok(
    await api.POST("/api/v1/players/", { body: { name: "Иван Петров", city: "Москва", rating: 1000 } }),
    "create a player",
  );
  const registrations = [
    ok(
      await api.POST("/api/v1/tournaments/{tournament_pk}/registrations/", {
        params: { path: { tournament_pk: id } },
        body: { player_id: known.id },
      }),
      "register a known player",
    ),
    ok(
      await api.POST("/api/v1/tournaments/{tournament_pk}/registrations/", {
        params: { path: { tournament_pk: id } },
        body: { player: { name: "Анна Смирнова", city: "Тверь", rating: 950 } },
      }),
      "register a new player",
    ),
  ];
  for (const registration of registrations) {
    const paid = ok(
      await api.PATCH("/api/v1/tournaments/{tournament_pk}/registrations/{registration_pk}/", {
        params: { path: { tournament_pk: id, registration_pk: registration.id } },
        body: { paid: true },
      }),
      "mark the fee paid",
    );
    if (!paid.paid) throw new Error("the fee is not marked paid");
  }

  ok(
    await api.POST("/api/v1/tournaments/{id}/draw/", {
      params: { path: { id } },
      body: { method: "seeded" },
    }),
    "draw",
  );
  ok(
    await api.POST("/api/v1/tournaments/{tournament_pk}/tables/", {
      params: { path: { tournament_pk: id } },
      body: { count: 1 },
    }),
    "set up a table",
  );
  const board = ok(
    await api.POST("/api/v1/tournaments/{tournament_pk}/tables/assign/", {
      params: { path: { tournament_pk: id } },
    }),
    "call matches to the tables",
  );
  const called = board.assigned[0];
  if (called === undefined) throw new Error("no match was called to the table");

  let match = ok(
    await api.GET("/api/v1/matches/{id}/", { params: { path: { id: called.id } } }),
    "read the match",
  );
  // Each event for the player whose turn it is: the engine's state says it, typed.
  const script: ((player: Slot) => EngineEvent)[] = [
    (player) => ({ type: "break", player, legal: true, pocketed: 0 }), // the turn passes
    (player) => ({ type: "shot", player, pocketed: 1 }),
    (player) => ({ type: "shot", player, pocketed: 1 }), // 2 balls: the race is won
  ];
  for (const [number, event] of script.entries()) {
    const state = match.state;
    if (!("discipline" in state) || state.turn === null) {
      throw new Error(`the engine waits for nobody: ${JSON.stringify(state)}`);
    }
    match = ok(
      await api.POST("/api/v1/matches/{id}/events/", {
        params: { path: { id: match.id } },
        body: {
          event: event(state.turn),
          expected_version: match.version,
          idempotency_key: `tap-${number}`,
        },
      }),
      `event ${number}`,
    );
  }
  if (match.status !== "finished" || match.winner === null) {
    throw new Error(`the match is not finished: ${match.status}`);
  }
  const winner = match.winner === "a" ? match.players.a : match.players.b;
  const score = match.score.score;
  if (score === null) throw new Error("a race won without a score");

  const standings = ok(
    await api.GET("/api/v1/tournaments/{id}/standings/", { params: { path: { id } } }),
    "standings",
  );
  if (!standings.complete) throw new Error("the standings are not complete");
  const first = standings.places[0]?.players[0]?.name;
  const prizes = ok(
    await api.GET("/api/v1/tournaments/{id}/prizes/", { params: { path: { id } } }),
    "prizes",
  );
  const award = prizes.awards[0]?.players[0];

  // A refusal is typed too: a finished match takes no event, a 409 with the one error body.
  const stale = await api.POST("/api/v1/matches/{id}/events/", {
    params: { path: { id: match.id } },
    body: { event: { type: "forfeit", player: "a" }, expected_version: 0 },
  });
  return {
    tournament: id,
    winner: `${winner?.name} / ${first} / ${award?.name}`,
    score: [score.a, score.b],
    paidFees: prizes.paid_fees,
    pool: prizes.pool,
    prize: award?.amount ?? "",
    staleCode: `${stale.response.status} ${stale.error?.code}`,
  };
}
