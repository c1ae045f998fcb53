/** One-shot timers per table (the betting timer's deadlines), held outside the sessions so eviction never drops one. */
export class TableTimers {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  /** Arms (or re-arms) the table's timer to fire at `at` (epoch ms). */
  set(tableId: string, at: number, fire: () => void): void {
    const previous = this.timers.get(tableId);
    if (previous) clearTimeout(previous);
    const timer = setTimeout(
      () => {
        this.timers.delete(tableId);
        fire();
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref?.();
    this.timers.set(tableId, timer);
  }

  /** Cancels every timer. */
  clear(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
