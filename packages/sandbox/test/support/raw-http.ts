import { type Agent, request } from "node:http";

/**
 * Sends one request over node:http exactly as given, for what fetch would change or refuse: a path it
 * would normalise, a method it forbids, a body on GET, a kept-alive agent. Answers the status and the
 * body as text.
 */
export function rawRequest(
  base: string,
  init: {
    path: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    agent?: Agent;
  },
): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: init.path,
        method: init.method ?? "GET",
        ...(init.headers === undefined ? {} : { headers: init.headers }),
        ...(init.agent === undefined ? {} : { agent: init.agent }),
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}
