/**
 * Asserting that something stays true over a window (the contract's quiet window when a change
 * must NOT happen): polls with a short interval until the window ends; fails at the first breach.
 */
export async function holdsFor(windowMs: number, check: () => Promise<void>, intervalMs = 100): Promise<void> {
  const until = performance.now() + windowMs;
  for (;;) {
    await check();
    if (performance.now() >= until) return;
    await new Promise((r) => setTimeout(r, Math.min(intervalMs, Math.max(0, until - performance.now()))));
  }
}
