import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEFAULT_RETRY } from "@drill-practice/client/internal";
import { describe, expect, it } from "vitest";
import { apiVersions } from "../src/site-header.ts";
import { assertSiteBuilt, distDir, loadBundle } from "./helpers/site.ts";

/** "429, 502, 503 and 504": a list as the guides write it. */
function spelled(values: readonly number[]): string {
  const words = values.map(String);
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

describe("sentences of the site that a change elsewhere could make untrue", () => {
  it("the landing page names the statuses the client retries, from the client's own table", async () => {
    assertSiteBuilt();
    const html = await readFile(join(distDir, "index.html"), "utf8");
    const sentence =
      /retries idempotent requests on network errors and the statuses\s+([^<]*?)\s+with back-off/.exec(html);
    expect(sentence, "the retry sentence of the quick start").not.toBeNull();
    const retryOn = DEFAULT_RETRY.retryOn;
    expect(Array.isArray(retryOn)).toBe(true);
    expect(sentence?.[1]?.replace(/\s+/g, " ")).toBe(spelled(retryOn as readonly number[]));
  });

  it.each(apiVersions)(
    "reference $id links to no contact address the project does not have",
    async (version) => {
      const bundle = await loadBundle(version);
      const info = bundle.info as { contact?: { url?: string; email?: string } };
      // The project has no public home yet; a contact link would lead nowhere.
      expect(info.contact?.url).toBeUndefined();
      expect(info.contact?.email).toBeUndefined();
    },
  );
});
