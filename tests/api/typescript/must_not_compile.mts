// Requests the schema refuses must not compile. Each line that must fail ends with
// `// error TSnnnn <words>`: the test asserts that tsc reports exactly these errors, on exactly
// these lines, each message saying its words.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type EngineEvent = components["schemas"]["EngineEvent"];
const api = createClient<paths>({ baseUrl: "http://localhost" });

// An event kind the engine does not know.
export const jump: EngineEvent = { type: "jump", player: "a" }; // error TS2322 "jump"
// A field of another event kind: a forfeit has no pocketed balls.
export const forfeit: EngineEvent = { type: "forfeit", player: "a", pocketed: 1 }; // error TS2353 'pocketed' does not exist
// A player who is not a slot.
export const shot: EngineEvent = { type: "shot", player: "c" }; // error TS2322 "c"

export async function wrongBodies(): Promise<void> {
  // Money is a decimal string, not a number.
  await api.POST("/api/v1/tournaments/", {
    body: { name: "Кубок", date: "2026-12-05", entry_fee: 500 }, // error TS2322 'number' is not assignable to type 'string'
  });
  // An event without the version the client saw.
  await api.POST("/api/v1/matches/{id}/events/", {
    params: { path: { id: 1 } },
    body: { event: { type: "shot", player: "a" } }, // error TS2322 'expected_version' is missing
  });
  // A draw method that does not exist.
  await api.POST("/api/v1/tournaments/{id}/draw/", {
    params: { path: { id: 1 } },
    body: { method: "alphabetical" }, // error TS2322 "alphabetical"
  });
  // A status a match never has.
  const match = await api.GET("/api/v1/matches/{id}/", { params: { path: { id: 1 } } });
  if (match.data?.status === "abandoned") return; // error TS2367 "abandoned"
}
