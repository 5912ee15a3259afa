/** Waits (polling on each turn of the event loop) until the check holds; the deadline allows for a loaded machine. */
export async function eventually(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`timed out waiting for ${what}`);
}
