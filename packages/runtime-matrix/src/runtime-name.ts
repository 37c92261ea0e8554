/**
 * Which runtime this code runs in, with its version, as the runtime itself reports it: the host
 * checks it against the pinned version, so a case cannot pass in the wrong binary.
 */
interface Globals {
  readonly Deno?: { readonly version: { readonly deno: string } };
  readonly Bun?: { readonly version: string };
  readonly process?: { readonly versions?: { readonly node?: string } };
  readonly navigator?: { readonly userAgent?: string };
}

/** The name and version of the current runtime, as the host compares them with the pinned one. */
export function runtimeName(): string {
  const scope = globalThis as Globals;
  if (scope.Deno !== undefined) return `deno ${scope.Deno.version.deno}`;
  if (scope.Bun !== undefined) return `bun ${scope.Bun.version}`;
  if (scope.process?.versions?.node !== undefined) return `node ${scope.process.versions.node}`;
  return scope.navigator?.userAgent ?? "unknown";
}
