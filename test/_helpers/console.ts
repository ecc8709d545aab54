/** Lets the current test write to the console; the setup file fails any other test that does. */
export const consoleGuard = { allowed: false };

export function allowConsole(): void {
  consoleGuard.allowed = true;
}
