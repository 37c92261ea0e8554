/**
 * One group member's own review date, as the 2.1.1 PUT group test and PUT group objective pages set it:
 * both take the form fields `user` (a member of the group) and `reviewDate` ("must be in the future").
 */
import type { SandboxState } from "../domain/state.js";
import { refuse } from "./family.js";

/** The form's `reviewDate`: an ISO 8601 date after now, else `invalid_review_date` (both pages). */
export function futureReviewDate(state: SandboxState, value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time) || time <= Date.parse(state.org.now())) {
    refuse(
      { kind: "invalid", field: "reviewDate" },
      `form field "reviewDate": ${JSON.stringify(value)} is no ISO 8601 date in the future`,
      "reviewDate",
    );
  }
  return new Date(time).toISOString();
}

/**
 * The form's `user`: a member of the group, else `user_not_group_member` (the PUT group test page's
 * identifier; the PUT group objective page's table is cut before any such row, so it borrows it).
 */
export function groupMember(state: SandboxState, groupId: string, userId: string): string {
  if (state.org.groupMembers.get(groupId, userId) === undefined) {
    refuse(
      { kind: "named", id: "user_not_group_member" },
      `form field "user": ${JSON.stringify(userId)} is not a member of the group`,
      "user",
    );
  }
  return userId;
}
