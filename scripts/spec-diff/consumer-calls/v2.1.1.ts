// Consumer code kept with each release: one call of every API 2.1.1 tag, so that compiling it
// against later generated types sees a renamed path, parameter or answer field in any part of
// the API. Each call reads a field of its answer, as an integration would.
import { createDrillClient } from "@drill-practice/client/v2.1.1";

const client = createDrillClient({ baseUrl: process.env.DRILL_BASE_URL ?? "http://127.0.0.1:4010" });
const id = "1";

const user = await client.GET("/api/2.1.1/user/{user}", { params: { path: { user: id } } });
const playable = await client.GET("/api/2.1.1/playable/{playable}", { params: { path: { playable: id } } });
const tests = await client.GET("/api/2.1.1/tests");
const groups = await client.GET("/api/2.1.1/groups", { params: { query: { resultSize: 10 } } });
const beacon = await client.GET("/api/2.1.1/beacon/{beacon}", { params: { path: { beacon: id } } });

console.log(
  user.data?.name,
  playable.data?.name,
  tests.data,
  groups.data?.pagination?.lastOnPage,
  beacon.data?.proximity,
);
