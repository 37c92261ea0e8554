import type { OpenApiDocument } from "./openapi-document.ts";

interface ServerObject {
  url: string;
  description?: string;
  variables?: Record<string, { default?: unknown; description?: string }>;
}

/** The command that starts the sandbox, as the site writes it everywhere. */
export const sandboxCommand = "npx -p @drill-practice/sandbox drill-sandbox";

/**
 * Redoc shows a templated server URL (`{base_url}`) literally. The rendered copy lists the
 * concrete address the spec gives as the variable's default (the local sandbox) and explains the
 * variable in the overview instead. Fails when the spec's server has no such default.
 */
export function withSandboxServer(input: OpenApiDocument): OpenApiDocument {
  const servers = input.servers as ServerObject[] | undefined;
  const server = servers?.[0];
  const match = server ? /^\{(\w+)\}$/.exec(server.url) : null;
  const name = match?.[1];
  const fallback = name !== undefined ? server?.variables?.[name]?.default : undefined;
  if (server === undefined || name === undefined || typeof fallback !== "string") {
    throw new Error('the spec\'s first server must be "{variable}" with a default address');
  }
  const prose = [
    "## Server address",
    "",
    `Paths are relative to the service's base address, which the description names \`${name}\`. ` +
      `The samples and the server shown here use its default, \`${fallback}\`: the local sandbox ` +
      `started with \`${sandboxCommand}\`. Against a deployment, use its base address instead ` +
      "(without a trailing slash); in the samples that is `DRILL_BASE_URL`.",
  ].join("\n");
  return {
    ...input,
    servers: [{ url: fallback, description: "Local sandbox (default address)" }],
    info: { ...input.info, description: `${input.info.description ?? ""}\n\n${prose}`.trim() },
  };
}
