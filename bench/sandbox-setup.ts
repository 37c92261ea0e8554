/**
 * What the sandbox server benchmarks share: servers closed whatever happens, and the store-search
 * mix as one load on a server that counts the searches that failed.
 */
import { type SearchParams, searchMix } from "./fixtures.ts";
import { cycle } from "./harness.ts";

/** Runs `work`, which opens its servers through `open`; every one opened is closed whatever happens. */
export async function withServers<T>(
  work: (open: <S extends { close(): unknown }>(server: Promise<S>) => Promise<S>) => Promise<T>,
): Promise<T> {
  const opened: { close(): unknown }[] = [];
  try {
    return await work(async (server) => {
      opened.push(await server);
      return server;
    });
  } finally {
    await Promise.all(opened.map((server) => server.close()));
  }
}

/** The mix cycled on one server; a search for which `search` says false counts as failed, not as fast. */
export const mixLoad = (
  catalog: string,
  failed: { count: number },
  search: (params: SearchParams) => Promise<boolean>,
): (() => Promise<void>) =>
  cycle(
    searchMix(catalog).map(({ params }) => async () => {
      if (!(await search(params))) failed.count++;
    }),
  );
