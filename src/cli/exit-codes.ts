/** Exit codes of the attest CLI, stable for scripts. */
export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  auth: 3,
  network: 4,
  /** Some outbox items failed or are uncertain. */
  outboxIncomplete: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
