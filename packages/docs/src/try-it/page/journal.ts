/**
 * The page session's journal: the changes the reader made in the in-page sandbox, kept in
 * `sessionStorage` so a reload (or the other reference) replays them into a fresh sandbox.
 */
import type { TryItRequest } from "../protocol.ts";

const JOURNAL_KEY = "drill-practice:try-it:journal";

/** The requests that changed the sandbox's state in this page session, in the order sent. */
export function journal(): TryItRequest[] {
  try {
    const saved = JSON.parse(sessionStorage.getItem(JOURNAL_KEY) ?? "[]") as unknown;
    return Array.isArray(saved) ? (saved as TryItRequest[]) : [];
  } catch {
    return [];
  }
}

/** Adds a request that changed the sandbox's state. */
export function remember(request: TryItRequest): void {
  try {
    sessionStorage.setItem(JOURNAL_KEY, JSON.stringify([...journal(), request]));
  } catch {
    // Storage refused (private mode, quota): the state then lasts as long as this page.
  }
}

/** Empties the journal, for Reset. */
export function forget(): void {
  try {
    sessionStorage.removeItem(JOURNAL_KEY);
  } catch {
    // Nothing stored.
  }
}
