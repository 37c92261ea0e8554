/**
 * From the values in a Try it form to the request sent, and to the `SampleRequest` the page's code
 * samples are written from, so "copy as curl" and "copy as TypeScript" show exactly what was sent.
 * Pure: used by the panel in the page and by the tests in Node.
 */

import type { HttpMethod } from "@drill-practice/tooling/operations";
import type { SampleRequest } from "../code-samples.ts";
import type { TryItField, TryItOperation, TryItRequest } from "./protocol.ts";

/** The values of a form, by field key (`in:name`); a repeated field holds several. */
export type FormValues = ReadonlyMap<string, readonly string[]>;

/** The key of a field in {@link FormValues}. */
export function fieldKey(field: Pick<TryItField, "in" | "name">): string {
  return `${field.in}:${field.name}`;
}

/** The form as the page prefills it: the samples' values. */
export function prefilledValues(operation: TryItOperation): Map<string, string[]> {
  return new Map(
    operation.fields.map((field) => [fieldKey(field), field.values.length > 0 ? [...field.values] : [""]]),
  );
}

/** A request the panel could put together, or the problems that stop it (one per field). */
export type Built =
  | { ok: true; request: TryItRequest; sample: SampleRequest }
  | { ok: false; problems: string[] };

const where: Record<TryItField["in"], string> = {
  path: "path parameter",
  query: "query parameter",
  form: "form field",
};

/**
 * Puts the request together from the form's values: a required field left empty, a value outside a
 * field's choices or a JSON body that does not parse is refused with a message naming the field.
 */
export function buildRequest(operation: TryItOperation, values: FormValues, jsonText?: string): Built {
  const problems: string[] = [];
  const filled = (field: TryItField): string[] =>
    (values.get(fieldKey(field)) ?? []).map((value) => value.trim()).filter((value) => value !== "");
  const tokenExchange = operation.body === "token";
  for (const field of operation.fields) {
    const given = filled(field);
    // The exchange's credentials come from the sandbox when left empty.
    if (field.required && given.length === 0 && !(tokenExchange && field.in === "form")) {
      problems.push(`${field.name} (${where[field.in]}): required${field.hint ? `: ${field.hint}` : ""}`);
    }
    const wrong = field.choices ? given.filter((value) => !field.choices?.includes(value)) : [];
    if (wrong.length > 0) {
      problems.push(
        `${field.name} (${where[field.in]}): "${wrong[0]}" is not one of ${field.choices?.join(", ")}`,
      );
    }
  }
  let json: unknown;
  if (typeof operation.body === "object" && "json" in operation.body) {
    try {
      json = JSON.parse(jsonText ?? operation.body.json);
    } catch (error) {
      problems.push(`request body: not valid JSON (${(error as Error).message})`);
    }
  }
  if (problems.length > 0) return { ok: false, problems };

  let target = operation.path;
  const sample: SampleRequest = {
    operationId: operation.operationId,
    method: operation.method as HttpMethod,
    path: operation.path,
    pathParams: [],
    query: [],
    authenticated: operation.authenticated,
  };
  const query: string[] = [];
  const form: [string, string][] = [];
  for (const field of operation.fields) {
    const given = filled(field);
    if (field.in === "path") {
      target = target.replace(`{${field.name}}`, encodeURIComponent(given[0] ?? ""));
      sample.pathParams.push({ name: field.name, value: { literal: given[0] ?? "" } });
    } else if (field.in === "query" && given.length > 0) {
      const sent = field.repeated ? given : given.slice(0, 1);
      for (const value of sent) query.push(`${encodeURIComponent(field.name)}=${encodeURIComponent(value)}`);
      sample.query.push({ name: field.name, values: sent, array: field.repeated });
    } else if (field.in === "form") {
      for (const value of field.repeated ? given : given.slice(0, 1)) form.push([field.name, value]);
    }
  }
  if (query.length > 0) target += `?${query.join("&")}`;
  const request: TryItRequest = {
    method: operation.method.toUpperCase(),
    target,
    authenticated: operation.authenticated,
    tokenExchange,
  };
  if (operation.body === "form") {
    request.body = { form };
    const repeated = new Set(operation.fields.filter((f) => f.repeated).map((f) => f.name));
    sample.body = { kind: "form", fields: form.map(([name, value]) => [name, value, repeated.has(name)]) };
  }
  if (tokenExchange) {
    request.body = { form };
    sample.body = {
      kind: "token",
      mediaType: "application/x-www-form-urlencoded",
      fields: operation.fields.filter((f) => f.in === "form" && f.required).map((f) => f.name),
    };
  }
  if (json !== undefined) {
    request.body = { json: JSON.stringify(json) };
    sample.body = { kind: "json", value: json };
  }
  return { ok: true, request, sample };
}

/** What a request goes out with: its headers and its encoded body, if it has one. */
export interface EncodedRequest {
  headers: Headers;
  body?: string;
}

/**
 * The headers and body of a request as sent, the same to the in-page sandbox and to the reader's own
 * server: JSON accepted, the bearer `token` when one is given, the body in the content type its kind
 * names. `form` stands in for the request's own form fields (the worker's token exchange fills the
 * fields left empty from the sandbox's credentials).
 */
export function encodeRequest(request: TryItRequest, token?: string, form?: URLSearchParams): EncodedRequest {
  const headers = new Headers({ accept: "application/json" });
  if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
  const fields =
    form ?? (request.body && "form" in request.body ? new URLSearchParams(request.body.form) : undefined);
  if (fields !== undefined) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    return { headers, body: fields.toString() };
  }
  if (request.body && "json" in request.body) {
    headers.set("content-type", "application/json");
    return { headers, body: request.body.json };
  }
  return { headers };
}
