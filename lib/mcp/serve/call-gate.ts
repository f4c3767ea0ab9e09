/** Caps how many calls run at once (per MCP session, or per stateless request); never queues. */
export class CallGate {
  private running = 0;

  /** @param limit the most calls allowed at once (at least 1). */
  constructor(readonly limit: number) {}

  /** How many calls are running now. */
  get active(): number {
    return this.running;
  }

  /** Takes a slot and returns true, or returns false when every slot is taken. */
  tryEnter(): boolean {
    if (this.running >= this.limit) return false;
    this.running += 1;
    return true;
  }

  /** Gives a slot back. */
  leave(): void {
    if (this.running > 0) this.running -= 1;
  }
}
