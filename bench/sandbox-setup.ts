/**
 * What the sandbox server benchmarks share: servers closed whatever happens, and the store-search
 * mix as one load on a server that counts the searches that failed.
 */
import { type SearchParams, searchMix } from "./fixtures.ts";
import { cycle } from "./harness.ts";

interface Closable {
  close(): unknown;
}

/** Runs `work`, which opens its servers through `open`; every one opened is closed whatever happens. */
export async function withServers<T>(
  work: (open: <S extends Closable>(server: S | Promise<S>) => Promise<S>) => Promise<T>,
): Promise<T> {
  const opened: Closable[] = [];
  try {
    return await work(async (server) => {
      opened.push(await server);
      return server;
    });
  } finally {
    await Promise.all(opened.map((server) => server.close()));
  }
}

/**
 * The mix cycled on one server: `search` answers whether a search gave a total; the others add to
 * `failed.count`, so a server that fails fast does not pass for a fast one.
 */
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
