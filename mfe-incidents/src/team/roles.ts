/** Staff roles (spec §6), in the order the team pages offer them; kept here rather than imported with zod. */
export const ROLES = ['ADMIN', 'REVIEWER', 'HANDLER'] as const;
export type TeamRole = (typeof ROLES)[number];
