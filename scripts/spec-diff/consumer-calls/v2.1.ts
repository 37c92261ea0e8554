// Consumer code kept with each release: one call of every API 2.1 tag, so that compiling it
// against later generated types sees a renamed path, parameter or answer field in any part of
// the API. Each call reads a field of its answer, as an integration would.
import { createDrillClient } from "@drill-practice/client/v2.1";

const client = createDrillClient({ baseUrl: process.env.DRILL_BASE_URL ?? "http://127.0.0.1:4010" });
const id = "1";

const metadata = await client.GET("/.well-known/oauth-authorization-server");
const login = await client.GET("/api/2.1/access/{user}", { params: { path: { user: id } } });
const course = await client.GET("/api/2.1/course/{course}", { params: { path: { course: id } } });
const entries = await client.GET("/api/2.1/drillable/{drillable}/easy-and-difficult-entries", {
  params: { path: { drillable: id } },
});
const store = await client.GET("/api/2.1/store");
const group = await client.GET("/api/2.1/group/{group}", { params: { path: { group: id } } });
const beacon = await client.GET("/api/2.1/beacon/{beacon}", { params: { path: { beacon: id } } });
const app = await client.GET("/api/2.1/client-app/{client}", { params: { path: { client: id } } });

console.log(
  metadata.data,
  login.data,
  course.data,
  entries.data,
  store.data,
  group.data,
  beacon.data,
  app.data,
);
