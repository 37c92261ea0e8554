// Consumer code kept with each release: one call of every API 2.0 tag, so that compiling it
// against later generated types sees a renamed path, parameter or answer field in any part of
// the API.
import { createDrillClient } from "@drill-practice/client/v2.0";

const client = createDrillClient({ baseUrl: process.env.DRILL_BASE_URL ?? "http://127.0.0.1:4010" });

const metadata = await client.GET("/.well-known/oauth-authorization-server");
const session = await client.GET("/api/2/session");
const tags = await client.GET("/api/2/drill/{drill_id}/tags", { params: { path: { drill_id: "1" } } });
const questions = await client.GET("/api/2/question");
const repertoire = await client.GET("/api/2/repertoire");
const groups = await client.GET("/api/2/groups");
const apps = await client.GET("/api/2/client-apps");

console.log(metadata.data, session.data, tags.data, questions.data, repertoire.data, groups.data, apps.data);
