/**
 * The workspace administration's messages in one place: the specs' words where they give them
 * (speech-generation.md §6, app-shell.md §2 and §8), ours where they do not.
 */
export const workspaceMessages = {
  /** speech-generation.md §6: a custom group may only enable what the Everyone group does not grant. */
  disableInEveryoneFirst: "Must be disabled in the Everyone group first",
  seatLimitReached: (seats: number) =>
    `This workspace has used all of its ${seats} ${seats === 1 ? "seat" : "seats"} (members and pending invites). Revoke an invite or upgrade the plan to invite more people.`,
  alreadyMember: (email: string) => `${email} is already a member of this workspace.`,
  memberNotFound: (email: string) => `No member of this workspace has the email ${email}.`,
  inviteNotFound: (email: string) => `There is no pending invite for ${email}.`,
  inviteInvalid: "This invite link is invalid or has expired. Ask a workspace admin for a new one.",
  inviteOtherEmail: (email: string) => `This invite is for ${email}. Sign in with that address to accept it.`,
  groupNotFound: (id: string) => `No group with the id ${id} exists in this workspace.`,
  groupNameTaken: (name: string) => `A group named “${name}” already exists.`,
  everyoneIsEveryone: "Everyone in the workspace belongs to the Everyone group; its members cannot be changed.",
  everyoneCannotBeDeleted: "The Everyone group cannot be deleted.",
  ownerUnchangeable: "The workspace owner's role cannot be changed and the owner cannot be locked.",
  cannotLockSelf: "You cannot lock your own account.",
  lastAdmin: "A workspace needs at least one admin who is not locked.",
};
