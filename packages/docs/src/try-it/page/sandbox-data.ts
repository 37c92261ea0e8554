/**
 * The sandbox's description and default data, fetched from the files the build wrote beside the
 * worker (`sandbox-files.ts`). Started as the worker's first module runs, so both arrive while the
 * browser compiles the sandbox's code; its generated modules await them.
 */

/** The files' names in `assets/`, put in by the build (esbuild `define`). */
declare const TRY_IT_SANDBOX_FILES: { description: string; data: string };

async function text(name: string): Promise<string> {
  const response = await fetch(new URL(`./${name}`, import.meta.url));
  if (!response.ok) throw new Error(`${name} answered ${response.status}`);
  return response.text();
}

function fetched(name: string): Promise<string> {
  const pending = text(name);
  // Reported where it is awaited (the sandbox's start), not as an unhandled rejection before that.
  pending.catch(() => undefined);
  return pending;
}

/** The texts the sandbox's generated modules export, once fetched. */
export const sandboxTexts = {
  description: fetched(TRY_IT_SANDBOX_FILES.description),
  data: fetched(TRY_IT_SANDBOX_FILES.data),
};
