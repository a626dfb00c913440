/**
 * Polls `check` until it holds (a thrown check counts as not yet), failing after `timeoutMs`. Its
 * own module, so tests that start no site (test/workflows/) do not load the site's modules.
 */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {}
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether a process with this id still runs (a signal 0 reaches it). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
