/** Who records reports: those who handle cases (a reviewer only reads them, and the server refuses them too). */
export const mayRecord = (roles: readonly string[]) => roles.includes('ADMIN') || roles.includes('HANDLER');
